// swift-tools-version:6.1
import PackageDescription

// PlugboardKit is its own package on purpose: SwiftPM links a target of the
// same package statically into every product that uses it, so the host and
// each plugin would carry private copies of every type. As a `.dynamic`
// product of a separate package, depended on by path, exactly one copy is
// loaded into the process and `as? Assembly` works across plugin boundaries.
let package = Package(
  name: "PlugboardKit",
  products: [
    .library(name: "PlugboardKit", type: .dynamic, targets: ["PlugboardKit"]),
    // Stamps shared modules and plugins; see Plugins/PlugboardStamp.
    .plugin(name: "PlugboardStamp", targets: ["PlugboardStamp"]),
    // The stamp itself, for tests and tools that compute one.
    .library(name: "PlugboardStamping", targets: ["PlugboardStamping"]),
  ],
  targets: [
    .target(name: "PlugboardABI"),
    .target(
      name: "PlugboardKit",
      dependencies: ["PlugboardABI"],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")],
      plugins: ["PlugboardStamp"]
    ),
    .target(name: "PlugboardStamping", swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
    .executableTarget(
      name: "plugboard-stamp", dependencies: ["PlugboardStamping"],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
    .plugin(name: "PlugboardStamp", capability: .buildTool(), dependencies: ["plugboard-stamp"]),
  ]
)
