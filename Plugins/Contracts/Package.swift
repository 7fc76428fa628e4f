// swift-tools-version:6.0
import PackageDescription

// The service contracts the sample plugins share. A separate package on
// purpose: SwiftPM links a target of the same package statically into every
// product that uses it, so contracts living in the root package would give
// each plugin its own copy of every protocol, and `as? HTTPTransport` would
// fail across plugins. As a `.dynamic` product of its own package, exactly one
// `libAppContracts.so` is loaded into the process (deduplicated by soname).
//
// The PlugboardStamp build plugin stamps the module's interface, so the host
// refuses a plugin compiled against other declarations of it (see
// Docs/plugins.md).
let package = Package(
  name: "AppContracts",
  products: [
    .library(name: "AppContracts", type: .dynamic, targets: ["AppContracts"])
  ],
  dependencies: [.package(path: "../../Kit")],
  targets: [
    .target(
      name: "AppContracts", swiftSettings: [.enableUpcomingFeature("ExistentialAny")],
      plugins: [.plugin(name: "PlugboardStamp", package: "Kit")])
  ]
)
