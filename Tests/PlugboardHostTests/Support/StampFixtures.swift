import Foundation
import PlugboardKit
import PlugboardStamping

/// A shared module, `StampedContracts`, in three versions, and a plugin,
/// `Stale`, compiled against the first: the case of a contract changed and
/// a plugin not rebuilt. Compiled with the toolchain's `swiftc` (quicker
/// than three packages), each module with the source the `PlugboardStamp`
/// build plugin would add, into a scratch folder beside this build's
/// products named after the sources, so later runs reuse it.
enum StampFixtures {
  typealias Failure = FixtureFailure

  /// The versions of `StampedContracts`.
  enum Contracts: String, CaseIterable {
    /// What `Stale` was compiled against.
    case original
    /// A requirement added to the protocol.
    case requirementAdded
    /// `original` with comments added and the layout changed.
    case commentsOnly

    var source: String {
      switch self {
      case .original:
        return """
          public protocol Greeter: AnyObject {
            func greet() -> String
          }
          """
      case .requirementAdded:
        return """
          public protocol Greeter: AnyObject {
            func greet() -> String
            func farewell() -> String
          }
          """
      case .commentsOnly:
        return """
          /// Greets. (A doc comment the original does not have.)
          public protocol Greeter : AnyObject
          {
            // A line comment, /* and a block comment /* nested */ */
            func greet( ) -> String  /* trailing */
          }
          """
      }
    }

    var stamp: String {
      InterfaceStamp.of([InterfaceStamp.SourceFile(path: "StampedContracts/Greeter.swift", text: source)])
    }
  }

  static let plugin = """
    import PlugboardKit
    import StampedContracts

    @_cdecl("plugboard_entry_v1")
    public func plugboardEntry() -> UnsafeRawPointer {
      PluginExport.descriptor(name: "Stale", version: "1.0.0") { [StaleAssembly()] }
    }

    final class EnglishGreeter: Greeter {
      func greet() -> String { "Hello from a plugin built against the original Greeter" }
    }

    struct GreeterApplication: Application {
      let greeter: any Greeter
      func run(arguments: [String]) async throws -> Int32 {
        print(greeter.greet())
        return 0
      }
    }

    struct StaleAssembly: Assembly {
      func assemble(container: Container) throws {
        container.register((any Greeter).self) { _ in EnglishGreeter() }.dependsOn()
        container.register((any Application).self) { r in GreeterApplication(greeter: try r.resolve()) }
          .dependsOn((any Greeter).self)
      }
    }
    """

  /// The scratch folder: `libStale.so` (compiled against `original`) and,
  /// in a folder per version, `libStampedContracts.so`.
  static let folder = ScratchFixture.folder(
    "plugboard-tests-stamps",
    sources: [InterfaceStamp.SourceFile(path: "Stale.swift", text: plugin)]
      + Contracts.allCases.map { InterfaceStamp.SourceFile(path: $0.rawValue, text: $0.source) },
    build: build(into:))

  private static func build(into folder: String) throws {
    for version in Contracts.allCases {
      try ScratchFixture.sharedModule(
        "StampedContracts", source: version.source, stamp: version.stamp,
        into: folder + "/" + version.rawValue)
    }
    try ScratchFixture.plugin(
      "Stale", source: plugin, against: "StampedContracts", in: folder + "/" + Contracts.original.rawValue,
      stamp: Contracts.original.stamp, into: folder)
  }

  /// A deployment in a fresh folder: `libStale.so` beside the `contracts`
  /// version of `libStampedContracts.so`, and a manifest naming the plugin.
  static func deployment(_ contracts: Contracts) throws -> (
    root: TemporaryDirectory, manifest: String, plugin: String
  ) {
    let built = try folder.get()
    let made = try ScratchFixture.deployment(
      plugin: "Stale",
      files: [
        (built + "/libStale.so", "libStale.so"),
        (built + "/\(contracts.rawValue)/libStampedContracts.so", "libStampedContracts.so"),
      ])
    return (made.root, made.manifest, made.canonical["libStale.so"] ?? "")
  }
}
