import PlugboardSupervision

/// What the parent knows of its child's bring-up: the stage from the
/// ``StageRecord``, the rest from the progress events read so far.
struct StageWatch: Sendable {
  enum Phase: Equatable, Sendable {
    case bringingUp
    case reporting
    case running
  }

  var phase = Phase.bringingUp
  /// The stage in progress, and its plugin and file when it is a plugin's.
  var stage: LoadStage?
  var plugin: String?
  var file: String?
  /// When the stage began, in nanoseconds of `CLOCK_MONOTONIC`.
  var started: Int64 = 0
  /// The time each stage may take: the flag's, else the manifest's, else
  /// ten seconds.
  var timeout: Duration
  /// Whether the flag set ``timeout`` (then the manifest's is ignored).
  let timeoutFromFlag: Bool
  /// The time exit-time code (library destructors, `atexit` handlers) may
  /// take: `--exit-timeout`'s, else the manifest's `exitTimeout`; nil for
  /// ``timeout``.
  var exitTimeout: Duration?
  /// Whether the flag set ``exitTimeout``.
  let exitTimeoutFromFlag: Bool
  /// Whether the child's stage timeout came: later ones are forged.
  var timeoutReceived = false
  var crash: (signal: Int32, message: String?)?
  /// A stop signal the child sent itself during bring-up.
  var selfSignal: Int32?
  /// The status the child was exiting with when its exit-time code began,
  /// and whether the application had run.
  var exiting: (status: Int32, afterApplication: Bool)?
  /// A pinned plugin's private folder the child made and has not removed
  /// yet: left behind if the child dies inside `dlopen`.
  var privateFolder: String?
  /// Where the crash happened (the faulting address, the frames), as the
  /// child's crash handler wrote it after its crash line.
  var sites: [CrashSite] = []
  /// Whether the child said `run`'s start hooks ran (believed only when
  /// the record says bring-up is over: plugin code could write the line
  /// during bring-up), and whether its orderly stop began.
  var ready = false
  var stopping = false
  /// How long the child's orderly stop may take, as it said when ready.
  var stopLimit: Duration?
  /// The resolution chain at the crash, outermost first.
  var making: [(type: String, site: String)] = []
  /// What `run`'s deployment brought up, as the child said.
  var inventory = DeploymentInventory()

  /// The faulting address and `PLUGBOARD_CRASH_FRAMES` frames.
  static let maximumCrashSites = Int(PLUGBOARD_CRASH_FRAMES)

  init(timeout: Duration?, exitTimeout: Duration? = nil) {
    self.timeout = timeout ?? Supervisor.defaultStageTimeout
    timeoutFromFlag = timeout != nil
    self.exitTimeout = exitTimeout
    exitTimeoutFromFlag = exitTimeout != nil
  }

  /// The deadline of exit-time code, counted from its announcement.
  var exitLimit: Duration { exitTimeout ?? timeout }

  /// Whether the stage in progress is bounded in time: only stages that
  /// run plugin code are (a plugin's own stages, and resolving the
  /// `Application` or, for `check --resolve`, each registration, whose
  /// factories are plugins'). plugboard's own work,
  /// the report and the application take as long as they need, and so does
  /// a crash being written out.
  var hasDeadline: Bool {
    phase == .bringingUp && crash == nil && (plugin != nil || stage?.resolvesRegistrations == true)
  }

  /// When the parent must look at the child again: at the stage's
  /// deadline (its start, as the child recorded it, plus ``timeout``); at
  /// `now` plus ``timeout`` while the stage has none, since the child
  /// starts a bounded stage without a word and the parent then finds it
  /// with its start; never once bring-up is over or a crash is being
  /// written. `.hung` when the stage's deadline has passed.
  func wake(now: Int64) -> Wake {
    guard phase == .bringingUp, crash == nil else { return .never }
    let limit = Self.nanoseconds(timeout)
    guard hasDeadline else { return .at(now + limit) }
    // A start in the future is scribbled memory: it cannot buy time.
    let deadline = min(started, now) + limit
    return deadline <= now ? .hung : .at(deadline)
  }

  enum Wake: Equatable {
    case never
    case at(Int64)
    case hung
  }

  static func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }

  /// The stage the child last recorded.
  mutating func apply(_ snapshot: StageSnapshot) {
    (stage, plugin, file, started, phase) =
      (snapshot.stage, snapshot.plugin, snapshot.file, snapshot.started, snapshot.phase)
  }

  mutating func apply(_ event: ProgressEvent) {
    switch event {
    case .stage(let stage, let plugin, let file):
      (self.stage, self.plugin, self.file) = (stage, plugin, file)
    case .stageTimeout(let duration, let exit):
      // Only the first: the child sends it before any plugin code runs
      // (see `ChildSession`), so a later one was written by plugin code, on
      // the pipe it inherited, to switch its own watchdog off.
      guard !timeoutReceived else { return }
      timeoutReceived = true
      if !timeoutFromFlag { timeout = duration }
      if !exitTimeoutFromFlag, let exit { exitTimeout = exit }
    case .crash(let signal, let message):
      if crash == nil { crash = (signal, message) }
    case .crashSite(let site):
      // Only after the crash line, and no more than one record holds:
      // the pipe is plugin code's too.
      guard crash != nil, sites.count <= Self.maximumCrashSites else { return }
      sites.append(site)
    case .making(let type, let site):
      making.append((type, site))
    case .selfSignal(let signal):
      if selfSignal == nil { selfSignal = signal }
    case .exiting(let status, let afterApplication):
      if exiting == nil { exiting = (status, afterApplication) }
    case .privateFolder(let folder):
      privateFolder = folder
    case .reporting:
      phase = .reporting
    case .running:
      phase = .running
    case .ready(let limit):
      // After the application, the child is writing its report: an
      // application that ended at once is read here late. Only the first:
      // a later line is plugin code's, on the pipe it inherited.
      guard phase != .bringingUp, !ready else { return }
      ready = true
      stopLimit = limit
    case .stopping:
      stopping = true
    case .inventory(let item):
      inventory.apply(item)
    }
  }
}
