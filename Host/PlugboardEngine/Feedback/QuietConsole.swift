/// A console under `--quiet`: errors and standard output pass, warnings
/// and informational lines (``Console/warn(_:)``, ``Console/info(_:)``)
/// do not. A deployment command's console is wrapped in one once it has
/// read `--quiet`, so that every warning it prints is silenced in one
/// place.
package struct QuietConsole: Console {
  private let base: any Console

  package init(_ base: any Console) {
    self.base = base
  }

  package func out(_ line: String) {
    base.out(line)
  }

  package func err(_ line: String) {
    base.err(line)
  }

  package func diagnostic(_ line: String, priority: JournalStream.Priority) {
    guard priority != .warning, priority != .info else { return }
    base.diagnostic(line, priority: priority)
  }

  package func finish() -> String? {
    base.finish()
  }
}
