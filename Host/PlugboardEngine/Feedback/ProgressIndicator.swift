import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// For a person at a terminal: once a stage of bring-up has taken longer
/// than ``delay``, one line on standard error says which plugin, which
/// stage and for how long (`plugboard: plugin 'Slow': assemble… 3 s`),
/// redrawn in place every second and erased when the stage ends, so a
/// slow plugin is never mistaken for a hang.
///
/// Only on a terminal (``enabled(isTerminal:noColor:term:verbosity:)``):
/// a file or a pipe never sees it. It runs in the process that runs the
/// plugins (the supervised child, or `--unsupervised`), on a thread of its
/// own started at the first stage, after the fork: the stage itself is
/// blocking the main thread. Erasing is done under the same lock as
/// drawing, before the main thread prints anything else, so the line
/// never lingers in front of a diagnostic. Output a plugin writes while
/// the line is shown lands after it; the next redraw starts a new line.
package final class ProgressIndicator: @unchecked Sendable {
  /// How long a stage runs before the line appears: long enough that a
  /// healthy start-up never flickers.
  static let delay = Duration.seconds(1)
  /// Carriage return and "erase to the end of the line".
  static let erase = "\r\u{1B}[K"
  /// Plugin names are cut to this many characters, so the line fits a
  /// narrow terminal and `\r` can erase all of it.
  static let maximumNameLength = 40

  /// Whether to show progress: standard error is a terminal, `NO_COLOR` is
  /// unset or empty, `TERM` is not `dumb`, and `--quiet` was not given.
  static func enabled(isTerminal: Bool, noColor: String?, term: String?, verbosity: Verbosity) -> Bool {
    isTerminal && (noColor ?? "").isEmpty && term != "dumb" && verbosity != .quiet
  }

  /// An indicator for this process's standard error, if it should have one.
  package static func forStandardError(verbosity: Verbosity) -> ProgressIndicator? {
    let environment = ProcessInfo.processInfo.environment
    let terminal = isatty(StandardError.descriptor) == 1
    let wanted = enabled(
      isTerminal: terminal, noColor: environment["NO_COLOR"], term: environment["TERM"], verbosity: verbosity)
    return wanted ? ProgressIndicator() : nil
  }

  /// The line shown for `stage` of `plugin` after `elapsed`.
  static func text(_ stage: LoadStage, plugin: String?, elapsed: Duration) -> String {
    let owner = plugin.map { name in
      let short = name.count > maximumNameLength ? name.prefix(maximumNameLength - 1) + "…" : Substring(name)
      return "plugin '\(Terminal.sanitize(String(short)))': "
    }
    return "plugboard: \(owner ?? "")\(stage.rawValue)… \(ElapsedTime.wholeSeconds(elapsed))"
  }

  private struct Step {
    let stage: LoadStage
    let plugin: String?
    let started: ContinuousClock.Instant
  }

  private let condition = NSCondition()
  private let clock = ContinuousClock()
  private var step: Step?
  private var shown = false
  private var started = false
  private var stopped = false

  /// `stage` begins: erases the line of the previous one, if shown.
  func begin(_ stage: LoadStage, plugin: String?) {
    condition.lock()
    defer { condition.unlock() }
    guard !stopped else { return }
    eraseIfShown()
    step = Step(stage: stage, plugin: plugin, started: clock.now)
    if !started {
      started = true
      Thread.detachNewThread { [self] in follow() }
    }
    condition.signal()
  }

  /// Bring-up is over: erases the line and ends the thread.
  func stop() {
    condition.lock()
    defer { condition.unlock() }
    eraseIfShown()
    step = nil
    stopped = true
    condition.signal()
  }

  private func follow() {
    condition.lock()
    defer { condition.unlock() }
    while !stopped {
      guard let step else {
        condition.wait()
        continue
      }
      let elapsed = clock.now - step.started
      if elapsed >= Self.delay {
        draw(Self.text(step.stage, plugin: step.plugin, elapsed: elapsed))
      }
      // Wake at the next whole second of the stage, or when it changes.
      let next = Duration.seconds(max(elapsed.components.seconds + 1, 1)) - elapsed
      let (seconds, attoseconds) = next.components
      _ = condition.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18))
    }
  }

  private func draw(_ text: String) {
    DescriptorLine.write(Self.erase + text, to: StandardError.descriptor, terminator: "")
    shown = true
  }

  private func eraseIfShown() {
    guard shown else { return }
    DescriptorLine.write(Self.erase, to: StandardError.descriptor, terminator: "")
    shown = false
  }
}
