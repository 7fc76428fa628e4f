import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// plugboard's default ``Logger``: one line per message on standard error,
/// `<level>: <message>`, for example `info: issue feed ready`.
///
/// Messages come from plugin code, so each is made safe for a terminal
/// first: every control character (line breaks too: one message is one
/// line, and a message cannot forge a second one) is written as
/// `\u{1B}`, and a message longer than ``maximumMessageLength`` bytes is
/// cut there and marked `… (truncated)`.
///
/// A line is written with one `write(2)` where the kernel allows (it does
/// for a pipe and a short line), so lines from several threads do not
/// interleave. A write that fails (standard error closed, a full disk, a
/// reader gone) cannot be reported where it failed, and logging must not
/// fail the caller: the line is dropped and counted in ``failedWrites``,
/// which an embedding program can read.
///
/// ```swift
/// let logger = StandardErrorLogger(minimumLevel: .warning)
/// logger.info("not written")
/// logger.error("disk \u{1B}[2Jfull")  // error: disk \u{1B}[2Jfull
/// ```
public final class StandardErrorLogger: Logger {
  /// The longest message written whole, in UTF-8 bytes.
  public static let maximumMessageLength = 16 * 1024

  public let minimumLevel: LogLevel
  private let descriptor: Int32
  private let failures = Atomic<Int>(0)

  /// A logger writing messages at `minimumLevel` or above to `descriptor`
  /// (standard error unless a test or an embedding program says otherwise).
  public init(minimumLevel: LogLevel = .info, descriptor: Int32 = STDERR_FILENO) {
    self.minimumLevel = minimumLevel
    self.descriptor = descriptor
  }

  /// How many lines could not be written.
  public var failedWrites: Int { failures.load(ordering: .relaxed) }

  public func write(_ level: LogLevel, _ message: String) {
    var bytes = Array(Self.line(level, message).utf8)
    bytes.append(UInt8(ascii: "\n"))
    let complete = bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return false }
        offset += written
      }
      return true
    }
    if !complete { failures.add(1, ordering: .relaxed) }
  }

  /// The line written for `message` at `level`, without its line break.
  public static func line(_ level: LogLevel, _ message: String) -> String {
    var text = "\(level): "
    var length = 0
    for scalar in message.unicodeScalars {
      length += UTF8.width(scalar)
      guard length <= maximumMessageLength else {
        text += "… (truncated)"
        break
      }
      if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
        text += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        text.unicodeScalars.append(scalar)
      }
    }
    return text
  }
}
