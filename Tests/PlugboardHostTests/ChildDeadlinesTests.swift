import Testing

@testable import PlugboardEngine

/// The arbitration between the deadlines the parent holds over its child:
/// which one bounds the sleep, what a passed one means, and how a
/// watchdog ping shortens the sleep without ever ending the child.
@Suite struct ChildDeadlinesTests {
  private static let second: Int64 = 1_000_000_000
  private static let start = 100 * second

  /// A child in a plugin's stage that began at `started`.
  private func bringingUp(
    started: Int64 = start, timeout: Duration = .seconds(10), exitTimeout: Duration? = nil
  ) -> StageWatch {
    var watch = StageWatch(timeout: timeout, exitTimeout: exitTimeout)
    watch.apply(
      StageSnapshot(
        sequence: 1, started: started, stage: .open, phase: .bringingUp, plugin: "Slow",
        file: "/lib/libSlow.so"))
    return watch
  }

  private func running() -> StageWatch {
    var watch = bringingUp()
    watch.phase = .running
    return watch
  }

  private func next(
    _ deadlines: inout ChildDeadlines, at now: Int64, _ watch: StageWatch, stopRequested: Bool = false,
    ping: Int64? = nil
  ) -> ChildDeadlines.Step {
    deadlines.next(now: now, watch: watch, stopRequested: stopRequested, ping: ping)
  }

  @Test func withNothingPendingTheParentSleepsUntilADescriptorWakesIt() {
    var deadlines = ChildDeadlines()
    #expect(next(&deadlines, at: Self.start, running()) == .poll(milliseconds: -1, until: nil))
    #expect(deadlines == ChildDeadlines())
  }

  @Test func theStageDeadlineBoundsTheSleepAndAHangPastItIsKilled() {
    var deadlines = ChildDeadlines()
    let watch = bringingUp()
    #expect(next(&deadlines, at: Self.start + Self.second, watch) == .poll(milliseconds: 9000, until: .stage))
    #expect(
      next(&deadlines, at: Self.start + 10 * Self.second, watch)
        == .kill(overdue: .stage, then: .hang(limit: .seconds(10))))
  }

  /// Once the child announced its exit, the stage in progress is over:
  /// exit-time code's deadline, counted from the announcement, replaces
  /// the stage's, and is not pushed back by a later look.
  @Test func exitTimeCodeGetsTheExitTimeoutFromItsAnnouncement() {
    var deadlines = ChildDeadlines()
    var watch = bringingUp(started: Self.start - 5 * Self.second, exitTimeout: .seconds(20))
    watch.exiting = (status: 1, afterApplication: false)
    #expect(next(&deadlines, at: Self.start, watch) == .poll(milliseconds: 20_000, until: .exit))
    #expect(deadlines.exit == Self.start + 20 * Self.second)
    #expect(
      next(&deadlines, at: Self.start + 15 * Self.second, watch) == .poll(milliseconds: 5000, until: .exit))
    #expect(
      next(&deadlines, at: Self.start + 20 * Self.second, watch)
        == .kill(overdue: .exit, then: .hang(limit: .seconds(20))))
  }

  @Test func withoutAnExitTimeoutExitTimeCodeGetsTheStageTimeout() {
    var deadlines = ChildDeadlines()
    var watch = running()
    watch.exiting = (status: 0, afterApplication: true)
    #expect(next(&deadlines, at: Self.start, watch) == .poll(milliseconds: 10_000, until: .exit))
    #expect(
      next(&deadlines, at: Self.start + 10 * Self.second, watch)
        == .kill(overdue: .exit, then: .hang(limit: .seconds(10))))
  }

  /// A crash line gives the crash handler its own time to write the
  /// report, whatever deadline ran before; cut short, the crash is still
  /// what is reported.
  @Test func aCrashReportOutrunsTheExitDeadlineAndIsReportedWhenCutShort() {
    var deadlines = ChildDeadlines()
    var watch = running()
    watch.exiting = (status: 0, afterApplication: true)
    #expect(next(&deadlines, at: Self.start, watch) == .poll(milliseconds: 10_000, until: .exit))
    watch.apply(.crash(signal: 11, message: nil))
    #expect(
      next(&deadlines, at: Self.start + Self.second, watch)
        == .poll(milliseconds: 30_000, until: .crashReport))
    #expect(
      next(&deadlines, at: Self.start + 31 * Self.second, watch) == .kill(overdue: .crashReport, then: .crash)
    )
  }

  @Test func aCrashDuringBringUpSuspendsTheStageDeadline() {
    var deadlines = ChildDeadlines()
    var watch = bringingUp(timeout: .seconds(1))
    watch.apply(.crash(signal: 6, message: "Fatal error"))
    #expect(next(&deadlines, at: Self.start, watch) == .poll(milliseconds: 30_000, until: .crashReport))
    #expect(deadlines.exit == nil)
  }

  /// A stop request during bring-up gives the child the stop grace to end
  /// by it; one that does not is killed, and reported as a hang of its
  /// stage.
  @Test func aStopRequestDuringBringUpGivesTheChildItsGrace() {
    var deadlines = ChildDeadlines()
    let watch = bringingUp()
    #expect(
      next(&deadlines, at: Self.start, watch, stopRequested: true)
        == .poll(milliseconds: 1000, until: .stopGrace))
    #expect(
      next(&deadlines, at: Self.start + Self.second / 2, watch, stopRequested: true)
        == .poll(milliseconds: 500, until: .stopGrace))
    #expect(
      next(&deadlines, at: Self.start + Self.second, watch, stopRequested: true)
        == .kill(overdue: .stopGrace, then: .hang(limit: .seconds(10))))
  }

  @Test func aStopRequestAfterBringUpStartsNoGrace() {
    var deadlines = ChildDeadlines()
    #expect(
      next(&deadlines, at: Self.start, running(), stopRequested: true) == .poll(milliseconds: -1, until: nil))
    #expect(deadlines.stopGrace == nil)
  }

  @Test func aStageDeadlineBeforeTheStopGraceStillBoundsTheSleep() {
    var deadlines = ChildDeadlines()
    let watch = bringingUp(started: Self.start - 9_500_000_000)
    #expect(
      next(&deadlines, at: Self.start, watch, stopRequested: true) == .poll(milliseconds: 500, until: .stage))
  }

  /// On a tie the deadline already chosen keeps it: the stage's against
  /// the stop grace, any deadline against the watchdog ping.
  @Test func onATieTheStageDeadlineKeepsItsPlaceBeforeTheStopGraceAndThePing() {
    var deadlines = ChildDeadlines()
    let watch = bringingUp(timeout: .seconds(1))
    let tied = Self.start + Self.second
    #expect(
      next(&deadlines, at: Self.start, watch, stopRequested: true, ping: tied)
        == .poll(milliseconds: 1000, until: .stage))
    #expect(
      next(&deadlines, at: tied, watch, stopRequested: true)
        == .kill(overdue: .stage, then: .hang(limit: .seconds(1))))
  }

  @Test func aPingDueBeforeTheDeadlineBoundsTheSleep() {
    var deadlines = ChildDeadlines()
    let ping = Self.start + Self.second / 4
    #expect(
      next(&deadlines, at: Self.start, bringingUp(), ping: ping)
        == .poll(milliseconds: 250, until: .watchdogPing))
  }

  @Test func aPingBoundsTheSleepWhenNoDeadlineDoesAndADuePingDoesNotWait() {
    var deadlines = ChildDeadlines()
    let watch = running()
    #expect(
      next(&deadlines, at: Self.start, watch, ping: Self.start + 2 * Self.second)
        == .poll(milliseconds: 2000, until: .watchdogPing))
    #expect(
      next(&deadlines, at: Self.start, watch, ping: Self.start - Self.second)
        == .poll(milliseconds: 0, until: .watchdogPing))
  }

  @Test func aPassedDeadlineKillsWhateverThePingSays() {
    var deadlines = ChildDeadlines()
    #expect(
      next(&deadlines, at: Self.start + 10 * Self.second, bringingUp(), ping: Self.start + 11 * Self.second)
        == .kill(overdue: .stage, then: .hang(limit: .seconds(10))))
  }

  /// `poll` takes whole milliseconds: a sleep is rounded up, so the parent
  /// never wakes just before a deadline and spins.
  @Test func sleepsAreRoundedUpToWholeMilliseconds() {
    var deadlines = ChildDeadlines()
    let watch = bringingUp(timeout: .nanoseconds(1_000_001))
    #expect(next(&deadlines, at: Self.start, watch) == .poll(milliseconds: 2, until: .stage))
  }
}
