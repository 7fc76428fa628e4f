import Dispatch
import PlugboardSupervision
import Synchronization

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
/// keeps forwarding signals to the child.
enum ShutdownSignals {
  /// Kept alive while it watches; replaced by each ``watch(_:)``. Static,
  /// as the signals' disposition is the process's.
  private static let source = Mutex<Watcher?>(nil)

  /// A read source, to keep between threads: libdispatch's objects may be
  /// used from any thread, but Swift's Dispatch on Linux does not say so.
  private struct Watcher: @unchecked Sendable {
    let reader: any DispatchSourceRead
  }

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
    reader.resume()
    let watcher = Watcher(reader: reader)
    let previous = source.withLock { source in
      defer { source = watcher }
      return source
    }
    previous?.reader.cancel()
    return true
  }
}
