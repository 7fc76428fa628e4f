// swift-tools-version:6.0
import PackageDescription

// PlugboardKit (the SDK) is a separate package, linked as a `.dynamic`
// product by path: a target of this package would be linked statically into
// every product that uses it, giving the host and each plugin their own copy
// of every type. See DEVELOPERS.md.
let kit: Target.Dependency = .product(name: "PlugboardKit", package: "Kit")

let package = Package(
  name: "Plugboard",
  products: [
    .executable(name: "plugboard", targets: ["plugboard"])
  ],
  dependencies: [
    .package(path: "Kit")
  ],
  targets: [
    .target(name: "PlugboardHost", dependencies: [kit], path: "Host/PlugboardHost"),
    .executableTarget(name: "plugboard", dependencies: ["PlugboardHost"], path: "Host/plugboard"),
    .testTarget(name: "PlugboardKitTests", dependencies: [kit], path: "Tests/PlugboardKitTests"),
  ]
)
