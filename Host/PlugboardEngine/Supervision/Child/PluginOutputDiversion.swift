import PlugboardSupervision
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What plugin code prints goes to standard error while the plugins load,
/// until the report or the application starts: a plugin that prints while
/// it registers must not put its line in front of `list --json`'s JSON.
/// Supervised or not.
final class PluginOutputDiversion: Sendable {
  /// Standard output as it was, while it is diverted: plugboard's own
  /// descriptor of it (at a high number, close-on-exec) and what it refers
  /// to, since plugin code may close it or take its number.
  private struct Saved {
    let descriptor: Int32
    let identity: plugboard_file_identity
  }

  /// Nil until ``divert()``, and again once ``restore(for:supervised:)``
  /// ended the diversion: each happens once.
  private let saved = Mutex<Saved?>(nil)

  /// Sends descriptor 1 to standard error, keeping plugboard's own copy of
  /// standard output. Does nothing when it is diverted already, or when
  /// standard output cannot be kept (it then stays where it is).
  func divert() {
    saved.withLock { saved in
      guard saved == nil else { return }
      // Unsupervised, plugboard's standard error is kept here, with no
      // parent to take it back from; a supervised child kept it when it
      // started.
      StandardError.keep(parent: 0)
      _ = plugboard_stdout_flush()
      let copy = plugboard_move_high(dup(STDOUT_FILENO))
      var identity = plugboard_file_identity()
      guard copy >= 0, plugboard_identity(copy, &identity) == 0 else {
        if copy >= 0 { close(copy) }
        return
      }
      guard dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else {
        close(copy)
        return
      }
      saved = Saved(descriptor: copy, identity: identity)
    }
  }

  /// Ends the diversion at `event`. The application gets standard output
  /// back (`.running`). A report (`.reporting`) is written through
  /// plugboard's own descriptor instead, and descriptor 1 stays standard
  /// error: what plugin threads still print cannot get into `--json`
  /// output. `supervised`: whether a parent can hand standard output back
  /// if plugin code closed plugboard's copy.
  func restore(for event: ProgressEvent, supervised: Bool) {
    guard let saved = saved.withLock({ $0.take() }) else { return }
    _ = plugboard_stdout_flush()
    let descriptor = Self.ownOutput(saved, supervised: supervised)
    guard descriptor >= 0 else { return }
    if event == .running {
      dup2(descriptor, STDOUT_FILENO)
      close(descriptor)
    } else if plugboard_stdout_use_descriptor(descriptor) != 0 {
      close(descriptor)
    }
  }

  /// `saved`, if it still refers to standard output; else, when plugin
  /// code closed or replaced it, standard output again, from the parent's
  /// (which no plugin touches), with a warning; -1 when neither can be had
  /// (the report then goes to standard error, the last resort).
  private static func ownOutput(_ saved: Saved, supervised: Bool) -> Int32 {
    if plugboard_is_same_file(saved.descriptor, saved.identity) != 0 { return saved.descriptor }
    let reopened = supervised ? plugboard_open_from_process(getppid(), STDOUT_FILENO, saved.identity) : -1
    StandardError.write(
      "plugboard: warning: plugin code closed or replaced plugboard's descriptor of standard output while "
        + "the plugins loaded; "
        + (reopened >= 0
          ? "plugboard took standard output back from its supervising process"
          : "what plugboard writes to standard output goes to standard error"),
      priority: .warning)
    return reopened
  }
}
