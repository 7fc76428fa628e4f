// swift-tools-version:6.2
import PackageDescription

// The service contracts the sample plugins share. A separate package on
// purpose: SwiftPM links a target of the same package statically into every
// product that uses it, so contracts living in the root package would give
// each plugin its own copy of every protocol, and `as? HTTPTransport` would
// fail across plugins. As a `.dynamic` product of its own package, exactly one
// `libAppContracts.so` is loaded into the process (deduplicated by soname).
//
// The module declares its release (ContractsRelease.swift) and is built with
// library evolution, so that a plugin compiled against an earlier 1.x keeps
// loading after the contracts gain a type, a method with a default or an
// enum case; the PlugboardStamp build plugin records the release in each
// plugin, and the host compares versions as it does PlugboardKit's (see
// Docs/plugin-reference.md). An unsafe flag is allowed in a package used by version
// only from tools version 6.2, hence that version.
let libraryEvolution: [SwiftSetting] = [.unsafeFlags(["-enable-library-evolution"])]

let package = Package(
  name: "AppContracts",
  products: [
    .library(name: "AppContracts", type: .dynamic, targets: ["AppContracts"])
  ],
  dependencies: [.package(path: "../../Kit")],
  targets: [
    .target(
      name: "AppContracts", swiftSettings: [.enableUpcomingFeature("ExistentialAny")] + libraryEvolution,
      plugins: [.plugin(name: "PlugboardStamp", package: "Kit")])
  ]
)
