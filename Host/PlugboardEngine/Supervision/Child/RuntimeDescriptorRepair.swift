import Dispatch
import PlugboardSupervision
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The runtime's event loop (libdispatch's epoll instance and the eventfd
/// and timerfd it watches), kept in a supervised child before the first
/// plugin code runs and put back after the stages of plugin code of a
/// plugin that closed or replaced them (see plugboard_runtime_descriptors.h).
///
/// Plugin code that closes every descriptor from 3 up takes them: they were
/// opened at the lowest free numbers, not moved high as plugboard's own
/// are. No Dispatch timer or source fired again: a start hook's
/// `hookTimeout` never came, SIGTERM went unhandled, and `run` hung for
/// good; and Dispatch's use of one while it was a plugin's file ended the
/// process with SIGILL. Put back as soon as that plugin's stages end, they
/// can only fail while its own code runs, and it is the one blamed.
///
/// Only in a supervised child: the process is bring-up's alone there. In a
/// process that embeds plugboard, another part may close its own
/// descriptors of those kinds at any time, and putting them back would be
/// wrong.
///
/// One per supervised child, owned by its ``ChildSession``: the stages
/// are reported from whatever thread runs bring-up or the application, so
/// what it keeps is behind a lock.
final class RuntimeDescriptorRepair: Sendable {
  private struct State {
    /// The descriptors kept, once the first plugin code is about to run.
    var kept: [plugboard_kept_descriptor]?
    /// The stages of plugin code of one plugin since the last check:
    /// checked when the next plugin's stages begin, or bring-up ends.
    /// Checking after each stage took 3,600 system calls over 201 plugins,
    /// per plugin 2,400; the plugin named is still the right one.
    var current: (stages: [LoadStage], plugin: String?)?
    /// The timer of ``settleDispatch(within:)``, kept.
    var settled: (any DispatchSourceTimer)?
    /// The timer ``beginSettling()`` scheduled, until the descriptors are kept.
    var settling: Settling?
  }

  /// A timer of ours scheduled on Dispatch, and whether it has fired.
  private struct Settling: @unchecked Sendable {
    let timer: any DispatchSourceTimer
    let fired: DispatchSemaphore
    /// When waiting for the event loop stops.
    let deadline: ContinuousClock.Instant
  }

  /// How long the event loop is waited for before its descriptors are kept.
  private static let patience = Duration.seconds(2)

  private let state = Mutex(State())

  /// The stages in which plugin code runs.
  static func runsPluginCode(_ stage: LoadStage) -> Bool {
    switch stage {
    case .open, .findEntry, .makeAssemblies, .configure, .assemble, .loadedHook, .resolveApplication,
      .resolveRegistrations, .run, .running:
      true
    case .readManifest, .locate, .vet, .checkVersions, .requirements, .applyProfile, .validate:
      false
    }
  }

  /// A new stage begins (nil: bring-up has ended): what the last plugin's
  /// code broke is put back once another plugin's stages begin, and the
  /// descriptors are kept before the first plugin code.
  func stageBegins(_ stage: LoadStage?, plugin: String?) {
    state.withLock { state in
      if let current = state.current, stage == nil || plugin == nil || plugin != current.plugin {
        state.current = nil
        Self.restore(after: current.stages, plugin: current.plugin, kept: &state.kept)
        // plugboard's copy of standard error, taken back now if that
        // plugin's code closed or replaced it: the default logger writes
        // to its number without looking first.
        _ = StandardError.descriptor
      }
      guard let stage, Self.runsPluginCode(stage) else { return }
      if state.kept == nil {
        state.kept = Self.keep(settling: state.settling ?? Self.schedule(), settled: &state.settled)
        state.settling = nil
      }
      if state.current != nil {
        state.current?.stages.append(stage)
      } else {
        state.current = ([stage], plugin)
      }
    }
  }

  /// Schedules the timer the descriptors are kept after (see
  /// ``settleDispatch(_:)``), where the child starts: Dispatch sets its
  /// event loop up and fires it while bring-up reads the manifest and vets
  /// the first plugin, rather than while the first plugin code waits.
  func beginSettling() {
    state.withLock { state in
      guard state.kept == nil, state.settling == nil else { return }
      state.settling = Self.schedule()
    }
  }

  private static func schedule() -> Settling {
    let deadline = ContinuousClock.now + patience
    let fired = DispatchSemaphore(value: 0)
    let timer = DispatchSource.makeTimerSource(queue: .global())
    timer.setEventHandler { fired.signal() }
    timer.schedule(deadline: .now())
    timer.resume()
    return Settling(timer: timer, fired: fired, deadline: deadline)
  }

  private static func keep(settling: Settling, settled: inout (any DispatchSourceTimer)?)
    -> [plugboard_kept_descriptor]
  {
    settled = settleDispatch(settling)
    let capacity: Int32 = 16
    var buffer = [plugboard_kept_descriptor](repeating: .init(), count: Int(capacity))
    let count = plugboard_keep_runtime_descriptors(&buffer, capacity)
    return Array(buffer.prefix(Int(count)))
  }

  /// Waits until libdispatch's event loop is set up and asleep: the timer
  /// of `settling` has fired, and the manager thread is back in
  /// `epoll_wait`.
  ///
  /// The manager sets its loop up (its epoll instance, its eventfd, the
  /// timerfd of its once-a-second worker monitor) on its own thread a
  /// little after the first worker starts, and every round it runs uses
  /// those descriptors. A first plugin initialiser that closed them in the
  /// middle of a round ended the process (seen once in forty runs under
  /// load, right after this wait when it only waited for the timer). Timers
  /// fire in order of their deadlines, so once ours has, the monitor's (due
  /// at start-up) is armed; once the manager sleeps again, the round is
  /// over, and it wakes next for the monitor, up to a second later, or when
  /// plugboard gives it work. Nothing tells when it sleeps, so its thread's
  /// system call is looked at, every 0.2 ms.
  ///
  /// The timer is not cancelled: a fired one-shot timer is disarmed
  /// already, and cancelling it would give the manager a round of work on
  /// those descriptors. Bounded: a Dispatch that cannot run the handler
  /// soon (no thread to be had) or a loop that never sleeps is not waited
  /// for past ``patience`` from scheduling, and what is there then is kept.
  private static func settleDispatch(_ settling: Settling) -> any DispatchSourceTimer {
    let (timer, deadline) = (settling.timer, settling.deadline)
    let left = max(0, Int((deadline - ContinuousClock.now) / .milliseconds(1)))
    guard settling.fired.wait(timeout: .now() + .milliseconds(left)) == .success else { return timer }
    while plugboard_event_loop_is_idle() == 0, ContinuousClock.now < deadline {
      var pause = timespec(tv_sec: 0, tv_nsec: 200_000)
      _ = nanosleep(&pause, nil)
    }
    return timer
  }

  private static func restore(
    after stages: [LoadStage], plugin: String?, kept keptSlot: inout [plugboard_kept_descriptor]?
  ) {
    guard let kept = keptSlot else { return }
    var putBack: [plugboard_kept_descriptor] = []
    var lost: [plugboard_kept_descriptor] = []
    for descriptor in kept {
      var descriptor = descriptor
      switch plugboard_restore_runtime_descriptor(&descriptor) {
      case 0: continue
      case 1: putBack.append(descriptor)
      default: lost.append(descriptor)
      }
    }
    guard !putBack.isEmpty || !lost.isEmpty else { return }
    // What cannot be put back (plugin code closed the copy as well) is
    // reported once, not blamed on every plugin after.
    if !lost.isEmpty { keptSlot = kept.filter { kept in !lost.contains { $0.fd == kept.fd } } }
    StandardError.write(
      warning(putBack: putBack.map(describe), lost: lost.map(describe), stages: stages, plugin: plugin),
      priority: .warning)
  }

  /// "3 (anon_inode:[eventpoll])", from the kept copy: the number itself
  /// may be a plugin's file now.
  private static func describe(_ descriptor: plugboard_kept_descriptor) -> String {
    var target = [CChar](repeating: 0, count: 64)
    guard plugboard_descriptor_target(descriptor.copy, &target, Int32(target.count)) == 0 else {
      return "\(descriptor.fd)"
    }
    let text = String(decoding: target.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return "\(descriptor.fd) (\(text))"
  }

  /// The warning, one line: which plugin, which descriptors, in which
  /// stage, what plugboard did, and what the plugin must do instead.
  static func warning(putBack: [String], lost: [String], stages: [LoadStage], plugin: String?) -> String {
    let who = plugin.map { "plugin '\($0)'" } ?? "plugin code"
    let clauses = stages.map { stage in
      plugin.flatMap { _ in CrashReport.clause(for: stage) } ?? "in the stage \(stage.rawValue)"
    }
    let when =
      clauses.count > 1
      ? clauses.dropLast().joined(separator: ", ") + " or " + (clauses.last ?? "")
      : clauses.first ?? "while it loaded"
    let all = putBack + lost
    let head =
      "plugboard: warning: \(who) closed or replaced the runtime's "
      + (all.count == 1 ? "descriptor " : "descriptors ") + all.joined(separator: ", ") + " \(when); "
    let pronoun = all.count == 1 ? "it" : "them"
    let outcome =
      lost.isEmpty
      ? "plugboard put \(pronoun) back"
      : putBack.isEmpty
        ? "plugboard could not put \(pronoun) back, and Dispatch's timers and sources may stop working"
        : "plugboard put back \(numbers(putBack)) but not \(numbers(lost)), and Dispatch's timers and "
          + "sources may stop working"
    return head + outcome + ". A plugin must close only the descriptors it opened."
  }

  private static func numbers(_ described: [String]) -> String {
    described.map { String($0.prefix { $0 != " " }) }.joined(separator: ", ")
  }
}
