import PlugboardKit
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The `Logger` service: levels, filtering, the default logger's lines and
/// what it does when it cannot write.
@Suite struct LoggerTests {
  /// What `body` makes a logger write, read back from a pipe.
  private func written(_ minimumLevel: LogLevel, _ body: (StandardErrorLogger) -> Void) throws -> String {
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    let logger = StandardErrorLogger(minimumLevel: minimumLevel, descriptor: ends[1])
    body(logger)
    close(ends[1])
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(ends[0], &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    close(ends[0])
    #expect(logger.failedWrites == 0)
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func levelsAreOrderedAndNamed() {
    #expect(LogLevel.allCases.map(\.description) == ["trace", "debug", "info", "notice", "warning", "error"])
    #expect(LogLevel.allCases == LogLevel.allCases.sorted())
    #expect(LogLevel(name: "notice") == .notice)
    #expect(LogLevel(name: "Notice") == nil)
    #expect(LogLevel(name: "warn") == nil)
  }

  @Test func messagesBelowTheMinimumAreDroppedUnbuilt() throws {
    let built = Atomic<Int>(0)
    func message(_ text: String) -> String {
      built.add(1, ordering: .relaxed)
      return text
    }
    let text = try written(.warning) { logger in
      logger.trace(message("t"))
      logger.debug(message("d"))
      logger.info(message("i"))
      logger.notice(message("n"))
      logger.warning(message("w"))
      logger.error(message("e"))
      #expect(!logger.isEnabled(.notice) && logger.isEnabled(.warning))
    }
    #expect(text == "warning: w\nerror: e\n")
    #expect(built.load(ordering: .relaxed) == 2)
  }

  @Test func controlCharactersAndLineBreaksAreEscaped() throws {
    let text = try written(.trace) { $0.info("evil\u{1B}]0;title\u{07}\nforged: line\u{9B}") }
    #expect(text == "info: evil\\u{1B}]0;title\\u{7}\\u{A}forged: line\\u{9B}\n")
  }

  @Test func aLongMessageIsCut() {
    let long = String(repeating: "é", count: StandardErrorLogger.maximumMessageLength)
    let line = StandardErrorLogger.line(.info, long)
    #expect(line.hasSuffix("… (truncated)"))
    #expect(line.utf8.count <= "info: ".utf8.count + StandardErrorLogger.maximumMessageLength + 20)
    #expect(StandardErrorLogger.line(.info, "short") == "info: short")
  }

  @Test func aFailedWriteIsCountedNotThrown() throws {
    let readOnly = open("/dev/null", O_RDONLY)
    try #require(readOnly >= 0)
    defer { close(readOnly) }
    let logger = StandardErrorLogger(minimumLevel: .info, descriptor: readOnly)
    logger.error("nowhere to go")
    logger.debug("not even tried")
    #expect(logger.failedWrites == 1)
  }

  /// A logger of one's own: the protocol's convenience methods filter by
  /// its minimum level and call only `write`.
  @Test func aCustomLoggerGetsOnlyWhatItsLevelAllows() {
    final class Recorder: Logger, @unchecked Sendable {
      let minimumLevel = LogLevel.notice
      var lines: [String] = []
      func write(_ level: LogLevel, _ message: String) { lines.append("\(level) \(message)") }
    }
    let recorder = Recorder()
    recorder.info("no")
    recorder.notice("yes")
    recorder.log(.error, "also")
    #expect(recorder.lines == ["notice yes", "error also"])
  }

  /// The container holds a logger like any service; a later registration
  /// replaces an earlier one, which is how a plugin replaces the host's.
  @Test func aLaterRegistrationReplacesTheLogger() throws {
    let container = Container()
    container.register((any Logger).self) { _ in StandardErrorLogger(minimumLevel: .error) }
    container.register((any Logger).self) { _ in StandardErrorLogger(minimumLevel: .trace) }
    #expect(try container.resolve((any Logger).self).minimumLevel == .trace)
  }
}
