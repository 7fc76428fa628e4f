// swift-tools-version:6.0
import PackageDescription

// A plugin as a third party would ship it: its own package, built on its
// own (`swift build --package-path Plugins/ThirdParty/Analytics`), depending
// on the SDK and the shared contracts by product only. Its build has its own
// copies of libPlugboardKit.so and libAppContracts.so, but at run time the
// dynamic loader deduplicates them by soname, so the host's copies serve it.
let package = Package(
  name: "Analytics",
  products: [
    .library(name: "Analytics", type: .dynamic, targets: ["Analytics"])
  ],
  dependencies: [
    .package(path: "../../../Kit"),
    .package(path: "../../Contracts"),
  ],
  targets: [
    .target(
      name: "Analytics",
      dependencies: [
        .product(name: "PlugboardKit", package: "Kit"),
        .product(name: "AppContracts", package: "Contracts"),
      ],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")],
      // Records the stamp of AppContracts it is compiled against.
      plugins: [.plugin(name: "PlugboardStamp", package: "Kit")]
    )
  ]
)
