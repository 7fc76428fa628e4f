import PlugboardSupervision
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Standard input, output and error as the process found them.
package enum StandardStreams {
  /// Closes every descriptor above 2 that plugboard inherited, except the
  /// sockets systemd's socket activation passes (`LISTEN_FDS`), as sudo
  /// does: a file or pipe left open by whatever started plugboard would
  /// otherwise be plugin code's to read or write, and every process it
  /// starts would inherit it. Call it first thing, before any file is
  /// opened. A failure is reported on standard error, and plugboard goes on.
  /// `keeping` descriptors right after socket activation's stay open too:
  /// the launcher's (see ``LauncherHandoff``).
  package static func closeInheritedDescriptors(keeping: Int32 = 0) {
    guard plugboard_close_inherited_descriptors(keeping) < 0 else { return }
    StandardError.write(
      "plugboard: warning: could not close the descriptors it inherited: \(String(cString: strerror(errno)))",
      priority: .warning)
  }

  /// Whether standard output was closed when plugboard started (`>&-`).
  package static var outputWasClosed: Bool { closedOutput.load(ordering: .relaxed) }

  /// Set by ``secure()``, first thing; read by whichever thread writes
  /// standard output.
  private static let closedOutput = Atomic<Bool>(false)

  /// Opens `/dev/null` on any of descriptors 0, 1 and 2 that is closed, so
  /// that no file plugboard opens later (a plugin, a pipe to its child)
  /// takes their place and receives what was meant for a terminal. A
  /// closed standard output is remembered: writing there must fail the
  /// command, not vanish. Call it first thing, before any file is opened.
  package static func secure() {
    for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      let null = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
      if null >= 0 && null != descriptor {
        dup2(null, descriptor)
        close(null)
      }
      if descriptor == 1 { closedOutput.store(true, ordering: .relaxed) }
    }
  }

  /// Grows the descriptor table to hold the high numbers plugboard keeps
  /// its own descriptors at, while the process has one thread: grown
  /// later, from a worker thread, it waited for an RCU grace period (6 to
  /// 16 ms of `run --unsupervised`'s start). Call it before anything
  /// starts a thread.
  package static func reserveHighDescriptors() {
    plugboard_reserve_high_descriptors()
  }
}
