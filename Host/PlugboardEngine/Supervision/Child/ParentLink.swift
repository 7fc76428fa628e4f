import PlugboardSupervision
import Synchronization

/// The supervised child's line to its parent: the ``StageRecord`` both
/// processes map, where every stage of bring-up is published before it
/// starts (no system call), so that if plugin code crashes or hangs in it
/// the parent knows which plugin and which stage; and the progress pipe's
/// write end, for the rare events (see ``ProgressEvent``).
///
/// Made once, where the child starts, and attached to the command's
/// ``ChildSession``; what changes later (the phase, whether the stage
/// timeout went out) is behind a lock, since bring-up, the application's
/// tasks and the signal watcher may report from different threads. The
/// record has one writer at a time for the same reason: its two slots and
/// their sequence number are written by plain stores, and two threads
/// publishing at once would lose one of the stages, or mix them in a slot.
final class ParentLink: Sendable {
  /// The pipe's write end, moved high, out of the numbers plugin code takes.
  let descriptor: Int32
  let record: StageRecord
  /// Plugins the parent took out of this run after they brought an
  /// earlier child down, by name, with the problem to report for each.
  let quarantine: [String: DeploymentProblem]

  private struct State {
    /// Bring-up until the first `.reporting` or `.running`, then the last
    /// of those: a stage recorded after them keeps it.
    var phase = StageWatch.Phase.bringingUp
    /// Whether the stage timeout went to the parent.
    var timeoutSent = false
  }

  private let state = Mutex(State())

  init(descriptor: Int32, record: StageRecord, quarantine: [String: DeploymentProblem]) {
    self.descriptor = descriptor
    self.record = record
    self.quarantine = quarantine
  }

  /// Records that `stage` begins, in the phase the child is in.
  func publish(_ stage: LoadStage, plugin: String?, file: String?) {
    state.withLock { state in
      record.publish(stage, plugin: plugin, file: file, phase: state.phase)
    }
  }

  /// Enters `phase` and returns the one it replaces; the record says so
  /// once ``recordPhase()`` is called.
  func enter(_ phase: StageWatch.Phase) -> StageWatch.Phase {
    state.withLock { state in
      defer { state.phase = phase }
      return state.phase
    }
  }

  /// Writes the phase entered last into the record, the stage unchanged.
  func recordPhase() {
    state.withLock { state in record.enter(state.phase) }
  }

  /// Sends `timeout` (a `.stageTimeout`) unless one went already: the
  /// parent believes the first it reads.
  func sendTimeoutOnce(_ timeout: ProgressEvent) {
    let first = state.withLock { state in
      defer { state.timeoutSent = true }
      return !state.timeoutSent
    }
    if first { send(timeout.line) }
  }

  /// Writes `text` (one line or several) down the pipe, in one write;
  /// never into a file of plugin code's that took the pipe's number.
  func send(_ text: String) {
    guard plugboard_progress_is_intact() != 0 else { return }
    DescriptorLine.write(text, to: descriptor)
  }
}
