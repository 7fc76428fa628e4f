import Dispatch
import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT and SIGTERM, turned from "die now" into a request to shut down
/// in order (`plugboard run`, once its services start).
///
/// A C handler writes the signal's number to a pipe (all a signal handler
/// may safely do); a Dispatch read source hands it to ``watch(_:)``'s
/// handler on an ordinary thread. A second signal ends the process at once
/// with that signal, for an operator whose shut-down hangs. Only the
/// supervised child (or an unsupervised `run`) installs this: the parent
/// keeps forwarding signals as before.
enum ShutdownSignals {
  /// Kept alive while it watches. Set only by ``watch(_:)``, which `run`
  /// calls once, from one task.
  nonisolated(unsafe) private static var source: (any DispatchSourceRead)?

  /// Catches SIGINT and SIGTERM from now on and calls `handler` with the
  /// first one's number. Returns false, leaving the signals' default
  /// action, when the pipe could not be made.
  @discardableResult
  static func watch(_ handler: @escaping @Sendable (Int32) -> Void) -> Bool {
    let descriptor = plugboard_catch_shutdown_signals()
    guard descriptor >= 0 else { return false }
    let reader = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .global())
    reader.setEventHandler {
      var byte: UInt8 = 0
      guard read(descriptor, &byte, 1) == 1 else { return }
      handler(Int32(byte))
    }
    source?.cancel()
    source = reader
    reader.resume()
    return true
  }
}
