import Testing

@testable import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// How the supervising parent reads one sleep in `poll(2)`, the same for
/// one child (`ChildFollower`) and for two during a reload
/// (`ReloadFollower`).
@Suite struct WakeupTests {
  private func kind(_ wake: Wakeup) -> String {
    switch wake {
    case .nothing: "nothing"
    case .woken: "woken"
    case .failed: "failed"
    }
  }

  @Test func aPollThatFailedIsToldFromOneAsleepOrInterrupted() {
    #expect(kind(Wakeup(ready: 0, error: 0, watched: [])) == "nothing")
    #expect(kind(Wakeup(ready: -1, error: EINTR, watched: [])) == "nothing")
    #expect(kind(Wakeup(ready: 1, error: 0, watched: [])) == "woken")
    #expect(kind(Wakeup(ready: -1, error: ENOMEM, watched: [])) == "failed")
    #expect(kind(Wakeup(ready: -1, error: EINVAL, watched: [])) == "failed")
  }

  /// Nothing else tells when the child ends once `poll` fails: the parent
  /// waits for it, rather than poll again at once, which would spin.
  @Test func afterAFailedPollTheParentWaitsForTheChildsEnd() throws {
    var pid: pid_t = 0
    let arguments: [String] = ["/bin/sh", "-c", "exit 3"]
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    try #require(posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ) == 0)
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    close(ends[1])
    let record = try #require(StageRecord.create())
    var child = FollowedChild(pid: pid, progress: ends[0], record: record, timeout: nil, exitTimeout: nil)
    #expect(child.takeIn(.failed) == .exited(3))
    child.release()
  }
}
