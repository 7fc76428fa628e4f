// swift-tools-version:6.0
import PackageDescription

// PlugboardKit is its own package on purpose: SwiftPM links a target of the
// same package statically into every product that uses it, so the host and
// each plugin would carry private copies of every type. As a `.dynamic`
// product of a separate package, depended on by path, exactly one copy is
// loaded into the process and `as? Assembly` works across plugin boundaries.
let package = Package(
  name: "PlugboardKit",
  products: [
    .library(name: "PlugboardKit", type: .dynamic, targets: ["PlugboardKit"])
  ],
  targets: [
    .target(name: "PlugboardABI"),
    .target(
      name: "PlugboardKit",
      dependencies: ["PlugboardABI"],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
  ]
)
