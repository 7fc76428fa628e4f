import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

/// Where a command writes: data to standard output, diagnostics to
/// standard error. Commands take one so tests can capture both.
package protocol Console: Sendable {
  /// Writes `line` and a newline to standard output.
  func out(_ line: String)
  /// Writes `line` and a newline to standard error.
  func err(_ line: String)
  /// Writes `line` and a newline to standard error as a diagnostic of
  /// `priority` (the journal files it so; see ``JournalStream``). By
  /// default, ``err(_:)``.
  func diagnostic(_ line: String, priority: JournalStream.Priority)
  /// Pushes out what is buffered, and says why standard output could not
  /// be written, if it could not: the command must then fail, because
  /// what it reported never arrived.
  func finish() -> String?
}

extension Console {
  package func finish() -> String? { nil }

  package func diagnostic(_ line: String, priority: JournalStream.Priority) { err(line) }
}

extension Console {
  /// Writes a warning line to standard error, unless `--quiet` was given
  /// (``QuietConsole``): `--quiet` prints only errors. Every warning a
  /// deployment command prints goes through here (`plugboard: run: warning: …`).
  package func warn(_ line: String) {
    diagnostic(line, priority: .warning)
  }

  /// Writes an informational line (not a warning, not an error) to
  /// standard error, unless `--quiet` was given (``QuietConsole``).
  package func info(_ line: String) {
    diagnostic(line, priority: .info)
  }
}

/// The process's own standard output and error.
///
/// Every control character but the line break is escaped on the way out
/// (``Terminal/sanitize(_:keepingLineBreaks:)``): what plugboard prints
/// carries names and messages from manifests and plugins, and none of them
/// may recolour the terminal, move its cursor or rewrite a line. JSON is
/// written with those characters already escaped (``JSONText``), so it
/// passes unchanged.
///
/// Standard output goes through C stdio, the buffer the application's own
/// `print` shares, so the two stay in order; a write error there is kept
/// by stdio and reported by ``finish()``. Standard error is written with
/// `write(2)` directly, after flushing standard output so that a
/// diagnostic never overtakes output printed before it, and a failed write
/// (closed, full, a reader gone) is dropped: there is nowhere left to say
/// it, and plugboard must end by exiting, not by a trap.
///
/// On a terminal, the `error:` and `warning:` beginning a line are
/// coloured (``Highlight``), unless `NO_COLOR` is set.
package struct StandardConsole: Console {
  private let colourOut: Bool
  private let colourErr: Bool

  package init() {
    colourOut = Highlight.enabled(forDescriptor: 1)
    colourErr = Highlight.enabled(forDescriptor: StandardError.descriptor)
  }

  package func out(_ line: String) {
    let text = Terminal.sanitize(line, keepingLineBreaks: true)
    _ = plugboard_stdout_puts((colourOut ? Highlight.colour(text) : text) + "\n")
  }

  package func err(_ line: String) {
    diagnostic(line, priority: .error)
  }

  package func diagnostic(_ line: String, priority: JournalStream.Priority) {
    _ = plugboard_stdout_flush()
    let text = Terminal.sanitize(line, keepingLineBreaks: true)
    StandardError.write(colourErr ? Highlight.colour(text) : text, priority: priority)
  }

  package func finish() -> String? {
    if StandardStreams.outputWasClosed { return "standard output is closed" }
    let failure = plugboard_stdout_flush()
    guard failure != 0 || plugboard_stdout_failed() != 0 else { return nil }
    // A write made by the application's own code failed: stdio kept only
    // that it did, not why.
    guard failure != 0 else { return "a write to it failed" }
    return String(cString: strerror(failure))
  }
}
