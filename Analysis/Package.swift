// swift-tools-version:6.0
import PackageDescription

// The analysis of a container's dependency graph: `check()` and
// `validate()`, their findings and chains, the graph `plugboard graph`
// draws, and the resolving check. Beside PlugboardKit rather than in it, so
// that the core every plugin is bound to stays small and the analysis can
// grow without touching that promise.
//
// A package of its own, not a product of Kit's: SwiftPM links a target of
// the same package statically into every product that uses it, so an
// analysis product in Kit's package would carry a private copy of
// PlugboardKit, whose containers no other module's would be. Here it
// depends on the one `.dynamic` PlugboardKit.
//
// A static library (SwiftPM's automatic kind), and so without library
// evolution: no type of it crosses from a plugin to the host, so the host
// and a plugin's tests can each link their own copy, and no plugin is ever
// bound to its binary interface. It reads containers through PlugboardKit's
// public inspection API only (`inventory(asIf:)`, `announceRegistrations`).
let package = Package(
  name: "PlugboardAnalysis",
  products: [
    .library(name: "PlugboardAnalysis", targets: ["PlugboardAnalysis"])
  ],
  dependencies: [.package(path: "../Kit")],
  targets: [
    .target(
      name: "PlugboardAnalysis", dependencies: [.product(name: "PlugboardKit", package: "Kit")],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")])
  ]
)
