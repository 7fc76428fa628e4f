import PlugboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// A test-only plugin that replaces plugboard's default `Logger` with its
/// own, which writes every level as `own logger: <level>: <message>`.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "OwnLogger", version: "0.0.1") { [OwnLoggerAssembly()] }
}

struct OwnLoggerAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any Logger).self) { _ in PrefixedLogger() }.dependsOn()
    container.register(String.self, name: "logTag") { _ in "OwnLogger" }.dependsOn()
  }
}

struct PrefixedLogger: Logger {
  let minimumLevel = LogLevel.trace

  func write(_ level: LogLevel, _ message: String) {
    var bytes = Array(StandardErrorLogger.line(level, "own logger: \(message)").utf8)
    bytes.append(UInt8(ascii: "\n"))
    _ = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
  }
}
