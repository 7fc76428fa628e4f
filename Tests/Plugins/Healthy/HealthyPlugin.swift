import PlugboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// A test-only plugin that is sound on its own, needing nothing but
/// PlugboardKit: `check` passes and `run` prints one line. The fault corpus
/// copies it where only the file's place or mode is wrong.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "Healthy", version: "0.0.1") { [HealthyAssembly()] }
}

struct HealthyAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any Application).self) { _ in HealthyApplication() }.dependsOn()
  }
}

/// Prints one line, then does what its first argument says, for the
/// supervision tests: `trap` (a Swift runtime trap once running), `exit N`
/// (returns N), `throw` (throws), `wait` (waits for a signal).
struct HealthyApplication: Application {
  func run(arguments: [String]) async throws -> Int32 {
    print("Healthy is running")
    switch arguments.first {
    case "trap":
      // Deliberate: the supervision tests need an application that traps.
      fatalError("the application gave up")
    case "exit": return Int32(arguments.dropFirst().first ?? "") ?? 0
    case "throw": throw HealthyFailure()
    case "wait":
      // Announce it: the test reading the line then signals plugboard.
      fflush(nil)
      while true { pause() }
    default: return 0
    }
  }
}

struct HealthyFailure: Error, CustomStringConvertible {
  var description: String { "Healthy failed on purpose" }
}
