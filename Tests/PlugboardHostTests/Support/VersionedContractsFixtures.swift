import Foundation
import PlugboardKit
import PlugboardStamping

/// A shared module that declares its release, `VersionedContracts`, built
/// with library evolution in four releases, and a plugin, `Versioned`,
/// compiled against 1.1.0: the case of contracts that changed compatibly,
/// or not, under a plugin nobody rebuilt. Compiled with the toolchain's
/// `swiftc`, each module with the source the `PlugboardStamp` build plugin
/// would add, into a scratch folder named after the sources, so later runs
/// reuse it (as ``StampFixtures``).
enum VersionedContractsFixtures {
  typealias Failure = FixtureFailure

  /// The releases of `VersionedContracts`.
  enum Release: String, CaseIterable {
    /// 1.1.0: what `Versioned` was compiled against.
    case compiledAgainst
    /// 1.2.0: a case inserted first in the enum the plugin switches over, a
    /// stored property inserted first in the struct it makes and reads, a
    /// requirement with a default added to the protocol it conforms to, and
    /// a type added.
    case laterMinor
    /// 1.0.0, with 1.1.0's declarations: older than the plugin's.
    case earlierMinor
    /// 2.0.0, with 1.1.0's declarations: another major version.
    case nextMajor

    var version: String {
      switch self {
      case .compiledAgainst: "1.1.0"
      case .laterMinor: "1.2.0"
      case .earlierMinor: "1.0.0"
      case .nextMajor: "2.0.0"
      }
    }

    var source: String {
      let declarations =
        self == .laterMinor
        ? """
        public enum Mood: Sendable {
          case curious, happy, sad
          public static var current: Mood { .sad }
        }

        public struct Greeting: Sendable {
          public var language: String = "en"
          public var text: String
          public init(text: String) { self.text = text }
        }

        public protocol Greeter: AnyObject {
          func greet(_ mood: Mood) -> Greeting
          func farewell() -> String
        }

        extension Greeter {
          public func farewell() -> String { "Goodbye" }
        }

        public struct Salutation: Sendable {
          public init() {}
        }
        """
        : """
        public enum Mood: Sendable {
          case happy, sad
          public static var current: Mood { .sad }
        }

        public struct Greeting: Sendable {
          public var text: String
          public init(text: String) { self.text = text }
        }

        public protocol Greeter: AnyObject {
          func greet(_ mood: Mood) -> Greeting
        }
        """
      return "\(ContractsVersion.directive) \(version)\n\n" + declarations + "\n"
    }

    var stamp: String {
      InterfaceStamp.of([InterfaceStamp.SourceFile(path: "VersionedContracts/Greeter.swift", text: source)])
    }
  }

  /// What `Versioned` prints: the greeting for the mood the contracts call
  /// current, which a renumbered case or a moved field would change.
  static let output = "Hello, sadly.\n"

  static let plugin = """
    import PlugboardKit
    import VersionedContracts

    @_cdecl("plugboard_entry_v1")
    public func plugboardEntry() -> UnsafeRawPointer {
      PluginExport.descriptor(name: "Versioned", version: "1.0.0") { [VersionedAssembly()] }
    }

    final class EnglishGreeter: Greeter {
      func greet(_ mood: Mood) -> Greeting {
        switch mood {
        case .happy: Greeting(text: "Hello!")
        case .sad: Greeting(text: "Hello, sadly.")
        @unknown default: Greeting(text: "Hello?")
        }
      }
    }

    struct GreeterApplication: Application {
      let greeter: any Greeter
      func run(arguments: [String]) async throws -> Int32 {
        print(greeter.greet(Mood.current).text)
        return 0
      }
    }

    struct VersionedAssembly: Assembly {
      func assemble(container: Container) throws {
        container.register((any Greeter).self) { _ in EnglishGreeter() }.dependsOn()
        container.register((any Application).self) { r in GreeterApplication(greeter: try r.resolve()) }
          .dependsOn((any Greeter).self)
      }
    }
    """

  /// The scratch folder: `libVersioned.so` (compiled against 1.1.0) and, in
  /// a folder per release, `libVersionedContracts.so`.
  static let folder = ScratchFixture.folder(
    "plugboard-tests-versioned",
    sources: [InterfaceStamp.SourceFile(path: "Versioned.swift", text: plugin)]
      + Release.allCases.map { InterfaceStamp.SourceFile(path: $0.rawValue, text: $0.source) },
    build: build(into:))

  private static func build(into folder: String) throws {
    for release in Release.allCases {
      try ScratchFixture.sharedModule(
        "VersionedContracts", source: release.source, stamp: release.stamp, version: release.version,
        evolving: true, into: folder + "/" + release.rawValue)
    }
    let compiledAgainst = Release.compiledAgainst
    try ScratchFixture.plugin(
      "Versioned", source: plugin, against: "VersionedContracts", in: folder + "/" + compiledAgainst.rawValue,
      stamp: compiledAgainst.stamp, version: compiledAgainst.version, into: folder)
  }

  /// A deployment in a fresh folder: `libVersioned.so` beside `release`'s
  /// `libVersionedContracts.so`, and a manifest naming the plugin.
  static func deployment(_ release: Release) throws -> (
    root: TemporaryDirectory, manifest: String, plugin: String, contracts: String
  ) {
    let built = try folder.get()
    let made = try ScratchFixture.deployment(
      plugin: "Versioned",
      files: [
        (built + "/libVersioned.so", "libVersioned.so"),
        (built + "/\(release.rawValue)/libVersionedContracts.so", "libVersionedContracts.so"),
      ])
    return (
      made.root, made.manifest, made.canonical["libVersioned.so"] ?? "",
      made.canonical["libVersionedContracts.so"] ?? ""
    )
  }
}
