// swift-tools-version:6.0
import PackageDescription

// PlugboardKit (the SDK) is a separate package, linked as a `.dynamic`
// product by path: a target of this package would be linked statically into
// every product that uses it, giving the host and each plugin their own copy
// of every type. See DEVELOPERS.md.
let kit: Target.Dependency = .product(name: "PlugboardKit", package: "Kit")
/// The analysis of a container's graph (`check()`, `validate()`, findings),
/// a product of its own beside the core: the host and tests link it,
/// plugins need not.
let analysis: Target.Dependency = .product(name: "PlugboardAnalysis", package: "Analysis")
/// The spellings other containers use, a product of its own beside the core.
let compat: Target.Dependency = .product(name: "PlugboardCompat", package: "Compat")

// The stamp of a module's sources, for the tests of stamps.
let stamping: Target.Dependency = .product(name: "PlugboardStamping", package: "Kit")

// The contracts the sample plugins share are a `.dynamic` product of their
// own package for the same reason.
let contracts: Target.Dependency = .product(name: "AppContracts", package: "Contracts")

/// The host's start: by default the compiler reaches the metadata
/// of a concrete generic type (a `[Int: [String: SettingValue]]`) through
/// its mangled name, and the runtime's first demangling of each checks the
/// type's requirements by scanning the protocol conformances of every
/// loaded image, Foundation's included: a tenth of `run`'s own work before
/// its first line. With the accessors the witness tables are passed
/// directly. An unsafe flag: a package that depends on this one by path
/// (as Docs/embedding.md does) may use it; by version it may not.
let hostSettings: [SwiftSetting] = [
  .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])
]

let pluginSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

/// Plugins that use the contracts record the stamp of the AppContracts they
/// are compiled against, which the host compares with the one it loads.
let stamped: [Target.PluginUsage] = [.plugin(name: "PlugboardStamp", package: "Kit")]

/// The sample deployment's plugins: each a `.dynamic` library under
/// `Plugins/<Name>/`, named in `plugins.json` as `.build/debug/lib<Name>.so`.
let samplePlugins = ["Networking", "Keychain", "Auth", "AuthMock", "Login", "IssueList", "Shell", "Timing"]
/// The sample plugins written with PlugboardCompat's spellings, as code
/// moved from another container is: each ships libPlugboardCompat.so
/// beside it, as it ships libAppContracts.so.
let samplePluginsUsingCompat: Set<String> = ["Timing"]

/// Test-only plugins under `Tests/Plugins/<Name>/`, each a `.dynamic`
/// library, for `plugboard check`'s tests: a dependency cycle across two
/// plugins (with Auth), a captive dependency, a key registered by two
/// plugins (with Keychain), and two plugins that each carry their own static
/// copy of the module `GreetingContract` (deliberately wrong; see
/// DEVELOPERS.md).
let brokenPlugins = ["CyclicAPI", "CaptiveTracker", "SecondKeychain", "GreetingProvider", "GreetingApp"]

/// Test-only: a plugin that registers a decorator in another plugin's name
/// (Tests/Plugins/Impersonator), which the host refuses.
let impersonatingPlugins = ["Impersonator"]

/// Test-only plugins under `Tests/Plugins/<Name>/` for the fault corpus,
/// needing only PlugboardKit so they can be copied anywhere: a sound one
/// (for faults of place and mode), one that traps inside `assemble`, and one
/// whose factory traps while the `Application` is resolved; and one that
/// prints while it registers.
let faultCorpusPlugins = ["Healthy", "TrappingAssembly", "TrappingFactory", "Chatty"]

/// Test-only plugins under `Tests/Plugins/<Name>/` for feedback and
/// logging, needing only PlugboardKit: one whose `assemble` waits until the
/// test releases it (progress on a terminal), an application that logs at
/// every level, and one that replaces plugboard's default `Logger`.
let feedbackPlugins = ["GatedAssembly", "LogWriter", "OwnLogger"]

/// Test-only plugins under `Tests/Plugins/<Name>/` for plugin requirements
/// and load order, needing only PlugboardKit: RequirerA declares the
/// requirements its environment variable lists, RequirerB requires RequirerA.
let requirementPlugins = ["RequirerA", "RequirerB"]

/// Test-only: a plugin with a required setting, a required secret and a
/// defaulted one, for the configuration checks (Tests/Plugins/Configured).
let configurationPlugins = ["Configured"]

/// Test-only plugins under `Tests/Plugins/<Name>/` for the lifecycle tests
/// (start and stop hooks), needing only PlugboardKit.
let lifecyclePlugins = ["LifecycleProbe"]

/// Test-only: a plugin whose `Application` has an async factory
/// (Tests/Plugins/AsyncApplication), for `run`'s awaited resolve.
let asyncPlugins = ["AsyncApplication"]

/// Test-only: a plugin that uses PlugboardKit as plugins do and prints what
/// it saw (Tests/Plugins/KitClient), run under a later Kit by the upgrade
/// tests.
let kitClientPlugins = ["KitClient"]

/// Test-only: a plugin in the shape of an assembly ported from Swinject,
/// whose factory resolves a type it does not declare and nothing registers
/// (Tests/Plugins/UndeclaredNeed), for `check --resolve`.
let resolvingPlugins = ["UndeclaredNeed"]

let package = Package(
  name: "Plugboard",
  products: [
    // The launcher (C): forks before the host maps anything, then starts
    // `plugboard-host`, which sits beside it and does the work.
    .executable(name: "plugboard", targets: ["PlugboardLauncher"]),
    .executable(name: "plugboard-host", targets: ["PlugboardHost"]),
    .executable(name: "plugboard-bench", targets: ["plugboard-bench"]),
    // The floor for the benchmark's startup scenarios: only dlopens.
    .executable(name: "plugboard-dlopen-baseline", targets: ["plugboard-dlopen-baseline"]),
    // Runs a program and reports its peak resident size (memory scenario).
    .executable(name: "plugboard-peak-rss", targets: ["plugboard-peak-rss"]),
    // The host's engine as a library, for programs with their own main
    // (Docs/embedding.md), and an example of one, run by the tests. The
    // command line (PlugboardCLI) is `plugboard`'s alone.
    .library(name: "PlugboardEngine", targets: ["PlugboardEngine"]),
    .executable(name: "embedded-host", targets: ["EmbeddedHost"]),
  ]
    + samplePlugins.map { .library(name: $0, type: .dynamic, targets: [$0]) }
    // Test-only: a plugin whose assembly throws.
    + [.library(name: "ThrowingPlugin", type: .dynamic, targets: ["ThrowingPlugin"])]
    // Test-only: the broken deployments `plugboard check` must diagnose.
    + brokenPlugins.map { .library(name: $0, type: .dynamic, targets: [$0]) }
    // Test-only: a plugin that registers in another plugin's name.
    + impersonatingPlugins.map { .library(name: $0, type: .dynamic, targets: [$0]) }
    // Test-only: the fault corpus's plugins.
    + faultCorpusPlugins.map { .library(name: $0, type: .dynamic, targets: [$0]) }
    // Test-only: feedback and logging.
    + feedbackPlugins.map { .library(name: $0, type: .dynamic, targets: [$0]) }
    // Test-only: plugins that declare requirements.
    + requirementPlugins.map { .library(name: $0, type: .dynamic, targets: [$0]) }
    // Test-only: a configured plugin.
    + configurationPlugins.map { .library(name: $0, type: .dynamic, targets: [$0]) }
    // Test-only: the lifecycle tests' plugins.
    + lifecyclePlugins.map { .library(name: $0, type: .dynamic, targets: [$0]) }
    // Test-only: an application made by an async factory.
    + asyncPlugins.map { .library(name: $0, type: .dynamic, targets: [$0]) }
    // Test-only: a client of every kind of registration, for Kit upgrades.
    + kitClientPlugins.map { .library(name: $0, type: .dynamic, targets: [$0]) }
    // Test-only: a factory that resolves what it does not declare.
    + resolvingPlugins.map { .library(name: $0, type: .dynamic, targets: [$0]) },
  dependencies: [
    .package(path: "Kit"),
    .package(path: "Analysis"),
    .package(path: "Compat"),
    .package(path: "Plugins/Contracts"),
  ],
  targets: [
    // Manifest, vetting and loading, configuration, deployment, supervision,
    // analysis and the embedding API: everything but the command line.
    .target(
      name: "PlugboardEngine",
      dependencies: [
        kit, analysis, "PlugboardSupervision", "PlugboardDigest", "PlugboardSignatures",
        "PlugboardLoaderModel",
      ],
      path: "Host/PlugboardEngine", swiftSettings: hostSettings),
    // SHA-256 and SHA-512, optimized in every build: a pinned or signed
    // plugin is hashed each time it loads, and unoptimized Swift hashes about 9 MB/s, which made
    // a debug host's pinned start-up six times its unpinned one.
    .target(name: "PlugboardDigest", path: "Host/PlugboardDigest", swiftSettings: [.unsafeFlags(["-O"])]),
    // SSH signatures of plugins (Ed25519, the SSHSIG envelope, allowed
    // signers), optimized in every build too: one verification is
    // thousands of field multiplications.
    .target(
      name: "PlugboardSignatures", dependencies: ["PlugboardDigest"], path: "Host/PlugboardSignatures",
      swiftSettings: [.unsafeFlags(["-O"])]),
    // The commands, their options and help, completion scripts and
    // `plugboard new`'s scaffolding, on top of the engine.
    .target(
      name: "PlugboardCLI",
      dependencies: [
        "PlugboardEngine", kit, analysis, "PlugboardSupervision", "PlugboardDigest", "PlugboardSignatures",
      ],
      path: "Host/PlugboardCLI", swiftSettings: hostSettings),
    // C: fork, pidfd_open and the signal handlers of the supervisor, which
    // Swift cannot call or write safely.
    .target(
      name: "PlugboardSupervision", dependencies: ["PlugboardLaunch"], path: "Host/PlugboardSupervision"),
    // C: what the launcher hands the host, shared by both.
    .target(name: "PlugboardLaunch", path: "Host/PlugboardLaunch"),
    // C: the one model of the dynamic loader's search that the launcher
    // (static, before anything is mapped) and the engine both vet with:
    // the links it follows and the subfolders it tries first.
    .target(name: "PlugboardLoaderModel", path: "Host/PlugboardLoaderModel"),
    // The launcher maps nothing but itself (that is its point), so it is C,
    // linked statically in release. Not in debug: the thread sanitizer's
    // runtime cannot be linked into a static executable. Without
    // `-nostartfiles` the Swift driver adds the runtime's image
    // registration, and with it the Swift runtime; and the driver names
    // `libswiftCore.so` all the same, which the loader would map (from an
    // installed prefix) before the launcher vets anything: in debug the
    // Swift libraries are linked statically, so nothing of them, used by
    // no one, is linked at all.
    .executableTarget(
      name: "PlugboardLauncher", dependencies: ["PlugboardLaunch", "PlugboardLoaderModel"],
      path: "Host/PlugboardLauncher",
      linkerSettings: [
        .unsafeFlags(["-nostartfiles"]),
        .unsafeFlags(["-static-stdlib"], .when(configuration: .debug)),
        .unsafeFlags(["-static-executable"], .when(configuration: .release)),
      ]),
    .executableTarget(
      name: "PlugboardHost", dependencies: ["PlugboardCLI", "PlugboardEngine"], path: "Host/PlugboardHost",
      swiftSettings: hostSettings),
    .executableTarget(name: "EmbeddedHost", dependencies: ["PlugboardEngine"], path: "Examples/EmbeddedHost"),
    .executableTarget(
      name: "plugboard-bench",
      dependencies: [kit, "PlugboardBenchSupport", "PlugboardEngine", "PlugboardDigest"],
      path: "Benchmarks/plugboard-bench", exclude: []),
    // C, because <malloc.h> (mallinfo2, for the memory scenario) is not in
    // Swift's Glibc module.
    .target(name: "PlugboardBenchSupport", path: "Benchmarks/PlugboardBenchSupport"),
    .executableTarget(name: "plugboard-dlopen-baseline", path: "Benchmarks/plugboard-dlopen-baseline"),
    // C: a child's ru_maxrss includes the peak of the image it exec'd
    // from, so the measuring parent must be tiny (see its main.c).
    .executableTarget(name: "plugboard-peak-rss", path: "Benchmarks/plugboard-peak-rss"),
    // What both test targets share about running tests: the executor that
    // tests which block their thread run on (see its files).
    .target(name: "PlugboardTestSupport", path: "Tests/PlugboardTestSupport"),
    .testTarget(
      name: "PlugboardKitTests",
      dependencies: [kit, analysis, compat, stamping, "PlugboardBenchSupport", "PlugboardTestSupport"],
      path: "Tests/PlugboardKitTests"),
    .testTarget(
      name: "PlugboardHostTests",
      dependencies: [
        "PlugboardCLI", "PlugboardEngine", "PlugboardDigest", "PlugboardSignatures", kit, analysis, compat,
        contracts, stamping, "PlugboardTestSupport",
      ],
      path: "Tests/PlugboardHostTests"),
    .target(
      name: "ThrowingPlugin", dependencies: [kit], path: "Tests/Plugins/ThrowingPlugin",
      swiftSettings: pluginSettings),
    // A target, so linked statically into both Greeting plugins: the
    // duplicated module copy that check must name.
    .target(name: "GreetingContract", path: "Tests/Plugins/GreetingContract", swiftSettings: pluginSettings),
  ]
    + brokenPlugins.map { name in
      let greeting: [Target.Dependency] = name.hasPrefix("Greeting") ? ["GreetingContract"] : [contracts]
      return .target(
        name: name, dependencies: [kit] + greeting, path: "Tests/Plugins/\(name)",
        swiftSettings: pluginSettings, plugins: name.hasPrefix("Greeting") ? [] : stamped)
    }
    + impersonatingPlugins.map {
      .target(
        name: $0, dependencies: [kit, contracts], path: "Tests/Plugins/\($0)", swiftSettings: pluginSettings,
        plugins: stamped)
    }
    + faultCorpusPlugins.map {
      .target(name: $0, dependencies: [kit], path: "Tests/Plugins/\($0)", swiftSettings: pluginSettings)
    }
    + (feedbackPlugins + requirementPlugins + configurationPlugins + lifecyclePlugins + asyncPlugins
    + kitClientPlugins + resolvingPlugins).map {
      .target(name: $0, dependencies: [kit], path: "Tests/Plugins/\($0)", swiftSettings: pluginSettings)
    }
    + samplePlugins.map {
      .target(
        name: $0, dependencies: [kit, contracts] + (samplePluginsUsingCompat.contains($0) ? [compat] : []),
        path: "Plugins/\($0)", swiftSettings: pluginSettings, plugins: stamped)
    }
)
