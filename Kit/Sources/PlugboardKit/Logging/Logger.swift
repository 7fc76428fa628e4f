/// Where a plugin's services write what they do: resolve it from the
/// container instead of printing.
///
/// plugboard registers a ``StandardErrorLogger`` before any plugin
/// assembles, at the level the operator chose (see ``LogLevel``), so
/// every deployment has one:
///
/// ```swift
/// container.register(IssueFeed.self) { resolver in
///   let logger = try resolver.resolve((any Logger).self)
///   logger.info("issue feed ready")  // info: issue feed ready
///   return IssueFeed(logger: logger)
/// }
/// ```
///
/// A plugin that wants the lines elsewhere (a file, the journal, a
/// collector) registers its own; registrations made later win, and the
/// host's default is made first, so a plugin's always replaces it (and
/// `plugboard check` does not report that as a duplicate registration):
///
/// ```swift
/// struct JournalLogger: Logger {
///   let minimumLevel = LogLevel.notice
///   func write(_ level: LogLevel, _ message: String) { journal.send(level, message) }
/// }
///
/// container.register((any Logger).self) { _ in JournalLogger() }
/// ```
///
/// Messages are `@autoclosure`s: below the minimum level they are never
/// built, so `logger.debug("\(expensiveDump())")` costs nothing when
/// debugging is off.
public protocol Logger: Sendable {
  /// The least severe level written; the convenience methods drop lower
  /// ones without building the message.
  var minimumLevel: LogLevel { get }

  /// Writes `message` at `level`. The convenience methods (``info(_:)``
  /// and its siblings) call it only at or above ``minimumLevel``.
  ///
  /// `message` comes from plugin code and may hold anything, control
  /// characters included: an implementation writing to a terminal must
  /// escape them. It must not throw or trap: a failure to log is not the
  /// caller's failure.
  func write(_ level: LogLevel, _ message: String)
}

extension Logger {
  /// Whether a message at `level` would be written.
  public func isEnabled(_ level: LogLevel) -> Bool { level >= minimumLevel }

  /// Writes the message at `level` if ``isEnabled(_:)``; builds it only then.
  public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
    guard isEnabled(level) else { return }
    write(level, message())
  }

  /// ``log(_:_:)`` at ``LogLevel/trace``.
  public func trace(_ message: @autoclosure () -> String) { log(.trace, message()) }
  /// ``log(_:_:)`` at ``LogLevel/debug``.
  public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
  /// ``log(_:_:)`` at ``LogLevel/info``.
  public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
  /// ``log(_:_:)`` at ``LogLevel/notice``.
  public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
  /// ``log(_:_:)`` at ``LogLevel/warning``.
  public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
  /// ``log(_:_:)`` at ``LogLevel/error``.
  public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}
