/// The stages of bring-up as they begin, turned into `--verbose`'s lines.
///
/// A stage ends when the next begins, or when bring-up ends (the report or
/// the application starts); each ending gives one line, then bring-up's
/// end gives the total, measured from the command's start:
///
///     plugboard: plugin 'Auth': vet took 0.3 ms
///     plugboard: plugin 'Auth': open took 4.1 ms
///     plugboard: validate took 1.2 ms
///     plugboard: resolve Application took 0.1 ms
///     plugboard: bring-up took 31.5 ms in total
///     plugboard: application running took 2.04 s
///
/// Plugin names come from the manifest: they are sanitised where the
/// lines are printed.
struct StageTimeline {
  private struct Step {
    let stage: LoadStage
    let plugin: String?
    let started: ContinuousClock.Instant
  }

  private let started: ContinuousClock.Instant
  private var current: Step?
  private var totalGiven = false

  init(started: ContinuousClock.Instant) {
    self.started = started
  }

  /// `stage` (of `plugin`, if a plugin's) begins `now`: the line of the
  /// stage it ends, if one was in progress.
  mutating func begin(_ stage: LoadStage, plugin: String?, at now: ContinuousClock.Instant) -> [String] {
    defer { current = Step(stage: stage, plugin: plugin, started: now) }
    return endCurrent(at: now)
  }

  /// Bring-up (or the stage after it) ends `now`: the line of the stage
  /// in progress, then, the first time, the total.
  mutating func finish(at now: ContinuousClock.Instant) -> [String] {
    var lines = endCurrent(at: now)
    if !totalGiven {
      totalGiven = true
      lines.append("plugboard: bring-up took \(ElapsedTime.text(now - started)) in total")
    }
    return lines
  }

  private mutating func endCurrent(at now: ContinuousClock.Instant) -> [String] {
    guard let step = current else { return [] }
    current = nil
    return [Self.line(step.stage, plugin: step.plugin, took: now - step.started)]
  }

  static func line(_ stage: LoadStage, plugin: String?, took duration: Duration) -> String {
    "plugboard: \(plugin.map { "plugin '\($0)': " } ?? "")\(stage.rawValue) took \(ElapsedTime.text(duration))"
  }
}
