#if canImport(Glibc)
  import Glibc
#endif

/// What the supervising parent says of a reload, on standard error: how
/// long the new deployment took to come up, what changed, and the
/// outcome; or why it did not come up.
///
/// What changed is what the two children said of their deployments (see
/// ``DeploymentInventory``): plugins added and removed, plugins rebuilt
/// (their library's digest, or size and modification time, differ), the
/// profile, and each plugin whose configuration changed.
struct ReloadReport {
  /// Lines that name the failure, as `run` would at start (empty when the
  /// new child wrote its own report).
  var lines: [String] = []
  /// The failure in a few words, for the last line and systemd's status.
  let reason: String
  /// From the reload request to the failure.
  let took: Duration
  /// What the new deployment would have changed, when it got as far as
  /// saying what it brought up (a start hook failed) and something did.
  var changes: [String] = []

  /// The failure's lines, ending with the one that says the running
  /// deployment carries on.
  func failureLines(command: String) -> [String] {
    let changed =
      changes.isEmpty
      ? [] : ["plugboard: \(command): what the reload would have changed: " + changes.joined(separator: "; ")]
    return lines + changed + [
      "plugboard: \(command): reload failed after \(ElapsedTime.text(took)): \(reason); "
        + "the running deployment carries on"
    ]
  }

  /// The lines of a reload that succeeded: the new deployment took over
  /// `upAfter` the request; the old child ended `oldEnding` after its stop,
  /// or was killed when it had not ended `oldKilledAfter` after it.
  static func success(
    upAfter: Duration, old: FollowedChild, new: FollowedChild, oldEnding: ChildEnding,
    oldKilledAfter: Duration? = nil
  ) -> [String] {
    let changes = DeploymentInventory.changes(from: old.watch.inventory, to: new.watch.inventory)
    var lines = [
      "plugboard: \(Supervisor.runCommand): reloaded: the new deployment took over after "
        + "\(ElapsedTime.text(upAfter)); "
        + (changes.isEmpty ? "nothing changed" : changes.joined(separator: "; "))
    ]
    if let oldKilledAfter {
      lines.append(
        "plugboard: \(Supervisor.runCommand): warning: the previous deployment had not ended "
          + "\(ElapsedTime.text(oldKilledAfter)) after its stop request; it was killed")
    } else if let trouble = trouble(oldEnding) {
      lines.append(
        "plugboard: \(Supervisor.runCommand): warning: the previous deployment \(trouble) as it stopped")
    }
    return lines
  }

  /// How the old child's end went wrong, if it did: it ends by its stop
  /// request (SIGTERM), or by exiting in order.
  private static func trouble(_ ending: ChildEnding) -> String? {
    switch ending {
    case .exited(let status) where status == 0 || status == 128 + SIGTERM: nil
    case .exited(let status): "exited with status \(status)"
    case .signaled(let signal) where SignalName.isRequest(signal, readerGone: { false }): nil
    case .signaled(let signal): "ended by \(SignalName.describe(signal))"
    case .hung(let limit): "was killed after its exit-time code ran past \(ElapsedTime.text(limit))"
    }
  }
}
