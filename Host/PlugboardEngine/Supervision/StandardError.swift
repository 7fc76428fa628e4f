import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

/// Lines to standard error with `write(2)`, for the supervising parent,
/// which must not trap when standard error is closed or full: it has no
/// one else to tell, so a failed write is dropped.
///
/// Every diagnostic plugboard itself writes passes here, so this is where
/// each line gets its syslog priority when standard error is the journal
/// (``JournalStream``).
///
/// In a process that runs plugin code, the lines go to plugboard's own
/// copy of standard error, kept before any plugin code ran (see
/// `plugboard_keep_standard_error`): a plugin that points descriptor 2
/// elsewhere silences its own output, never plugboard's report of it.
enum StandardError {
  /// The descriptor plugboard's own diagnostics go to: its kept copy of
  /// standard error once there is one (taken back from the supervising
  /// parent when plugin code closed or replaced it), else descriptor 2.
  static var descriptor: Int32 { plugboard_standard_error() }

  /// Keeps plugboard's own copy of standard error, for the rest of the
  /// process, before any plugin code runs; `parent` is the supervising
  /// process, to take it back from (0 for none). Only the first call counts.
  static func keep(parent: pid_t) {
    _ = plugboard_keep_standard_error(parent)
  }

  static func write(_ line: String, priority: JournalStream.Priority) {
    DescriptorLine.write(JournalStream.prefixed(line, priority), to: descriptor)
  }
}

/// One line to a file descriptor with `write(2)`: standard error, or the
/// supervised child's progress pipe (where a parent that went away is not
/// the child's error: its absence shows in the child's exit status).
enum DescriptorLine {
  /// `line` and `terminator` (a newline unless told otherwise) to
  /// `descriptor`, in as few `write(2)` calls as the kernel allows (one,
  /// for a pipe and a short line), retrying after a signal; a failure
  /// drops the rest.
  static func write(_ line: String, to descriptor: Int32, terminator: String = "\n") {
    var bytes = Array((line + terminator).utf8)
    bytes.withUnsafeMutableBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
      }
    }
  }
}
