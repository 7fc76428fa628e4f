// swift-tools-version:6.2
import PackageDescription

// The spellings other containers use (`~>`, `lifetime:`, `instance:`,
// `Factory` of a `FactoryModule`, `@Inject(\.keyPath)`), for code moving to
// Plugboard: beside PlugboardKit rather than in it, so that the core every
// plugin is bound to stays small.
//
// A package of its own, not a product of Kit's: SwiftPM links a target of
// the same package statically into every product that uses it, so a
// compatibility product in Kit's package would carry a private copy of
// PlugboardKit, and a registration it made would be of a type no other
// plugin's resolve recognises. As a `.dynamic` product of its own package
// it links the one libPlugboardKit.so, and every plugin that imports it
// shares one `Factory` type.
//
// Built with library evolution, as Kit is, and released with it under
// Kit's version (Scripts/check-kit-abi checks both against their
// baselines). An unsafe flag is allowed in a package used by version only
// from tools version 6.2, hence that version. The textual interface is not
// checked, for Kit's reason (Kit/Package.swift): the check does not see the
// C module PlugboardKit's inlined code calls.
let libraryEvolution: [SwiftSetting] = [
  .unsafeFlags(["-enable-library-evolution", "-no-verify-emitted-module-interface"])
]

let package = Package(
  name: "PlugboardCompat",
  products: [
    .library(name: "PlugboardCompat", type: .dynamic, targets: ["PlugboardCompat"])
  ],
  dependencies: [.package(path: "../Kit")],
  targets: [
    .target(
      name: "PlugboardCompat", dependencies: [.product(name: "PlugboardKit", package: "Kit")],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")] + libraryEvolution)
  ]
)
