import PlugboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// Whether standard error is connected to systemd's journal, which then
/// reads a `<N>` syslog priority at the start of each line (sd-daemon(3)):
/// systemd sets `JOURNAL_STREAM` to the `device:inode` of the stream it
/// connected, and only when standard error is still that stream (not
/// redirected by a shell wrapper or a test) is the prefix wanted; anywhere
/// else it would be noise in a file or on a terminal.
package enum JournalStream {
  /// The priority of one diagnostic line, as syslog numbers it.
  package enum Priority: Int {
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6
    case debug = 7

    /// `<3>`.
    var prefix: String { "<\(rawValue)>" }

    /// The priority a log message of `level` is written with.
    init(_ level: LogLevel) {
      switch level {
      case .trace, .debug: self = .debug
      case .info: self = .info
      case .notice: self = .notice
      case .warning: self = .warning
      case .error: self = .error
      }
    }
  }

  /// Decided once, at the first line: `JOURNAL_STREAM` against plugboard's
  /// own standard error (plugin code that replaces descriptor 2 does not
  /// change plugboard's mind).
  static let isStandardError: Bool = matches(
    getenv("JOURNAL_STREAM").map { String(cString: $0) }, descriptor: StandardError.descriptor)

  /// Whether `value` (`"<device>:<inode>"`, both decimal) names the file
  /// open on `descriptor`; false for a missing or malformed value.
  static func matches(_ value: String?, descriptor: Int32) -> Bool {
    guard let value else { return false }
    let parts = value.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return false }
    return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
  }

  /// `text` with `priority`'s prefix at the start of each of its lines
  /// when standard error is the journal; `text` unchanged otherwise.
  static func prefixed(_ text: String, _ priority: Priority) -> String {
    guard isStandardError else { return text }
    let prefix = priority.prefix
    return prefix + text.replacing("\n", with: "\n" + prefix)
  }
}

/// plugboard's default logger when standard error is the journal: the
/// ``StandardErrorLogger``'s lines, each with the priority of its level,
/// so `journalctl -p warning` finds a plugin's warnings.
struct JournalLogger: Logger {
  let minimumLevel: LogLevel

  func write(_ level: LogLevel, _ message: String) {
    DescriptorLine.write(
      JournalStream.Priority(level).prefix + StandardErrorLogger.line(level, message),
      to: StandardError.descriptor)
  }
}
