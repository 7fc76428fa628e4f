// swift-tools-version:6.2
import PackageDescription

// PlugboardKit is its own package on purpose: SwiftPM links a target of the
// same package statically into every product that uses it, so the host and
// each plugin would carry private copies of every type. As a `.dynamic`
// product of a separate package, depended on by path, exactly one copy is
// loaded into the process and `as? Assembly` works across plugin boundaries.
//
// PlugboardKit is built with library evolution, so that a plugin compiled
// against one release keeps running under a host built from a later,
// compatible one: a client reaches Kit's types through their metadata
// rather than through layouts fixed when it was compiled. The resolution
// path is the exception, inlined into clients on purpose and frozen (see
// Kit/ABI.md). An unsafe flag is allowed in a package used by version only
// from tools version 6.2, hence that version.
//
// With the flag SwiftPM also writes a textual interface and checks that it
// compiles, which it cannot: the check does not see the C module
// PlugboardABI that Kit's inlined code calls. Clients never read the
// interface (the host accepts only plugins from its own compiler, which
// reads the binary module), so the check is turned off rather than the
// inlined code given up.
let libraryEvolution: [SwiftSetting] = [
  .unsafeFlags(["-enable-library-evolution", "-no-verify-emitted-module-interface"])
]

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
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")] + libraryEvolution,
      plugins: ["PlugboardStamp"]
    ),
    .target(name: "PlugboardStamping", swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
    .executableTarget(
      name: "plugboard-stamp", dependencies: ["PlugboardStamping"],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
    .plugin(name: "PlugboardStamp", capability: .buildTool(), dependencies: ["plugboard-stamp"]),
  ]
)
