import PlugboardKit

/// A test-only plugin whose application resolves the `Logger` and logs one
/// line at every level, then one with control characters that must not
/// reach a terminal. It registers `String` named "logTag", as OwnLogger
/// does, so the two together make a duplicate registration `run` warns of.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "LogWriter", version: "0.0.1") { [LogWriterAssembly()] }
}

struct LogWriterAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register(String.self, name: "logTag") { _ in "LogWriter" }.dependsOn()
    container.register((any Application).self) { resolver in
      LogWriterApplication(logger: try resolver.resolve((any Logger).self))
    }
    .dependsOn((any Logger).self)
  }
}

struct LogWriterApplication: Application {
  let logger: any Logger

  func run(arguments: [String]) async throws -> Int32 {
    for level in LogLevel.allCases { logger.log(level, "LogWriter at \(level)") }
    logger.error("forged\n\u{1B}[2Jline")
    return 0
  }
}
