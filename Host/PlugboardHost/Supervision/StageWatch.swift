/// What the parent knows of its child's bring-up, from the progress events
/// read so far.
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
  /// The time each stage may take: the flag's, else the manifest's, else
  /// ten seconds.
  var timeout: Duration
  /// Whether the flag set ``timeout`` (then the manifest's is ignored).
  let timeoutFromFlag: Bool
  var crash: (signal: Int32, message: String?)?
  /// The resolution chain at the crash, outermost first.
  var making: [(type: String, site: String)] = []

  init(timeout: Duration?) {
    self.timeout = timeout ?? Supervisor.defaultStageTimeout
    timeoutFromFlag = timeout != nil
  }

  /// Whether the stage in progress is bounded in time: only stages that
  /// run plugin code are (a plugin's own stages, and resolving the
  /// `Application`, whose factories are plugins'). plugboard's own work,
  /// the report and the application take as long as they need, and so does
  /// a crash being written out.
  var hasDeadline: Bool {
    phase == .bringingUp && crash == nil && (plugin != nil || stage == .resolveApplication)
  }

  mutating func apply(_ event: ProgressEvent) {
    switch event {
    case .stage(let stage, let plugin, let file):
      (self.stage, self.plugin, self.file) = (stage, plugin, file)
    case .stageTimeout(let duration):
      if !timeoutFromFlag { timeout = duration }
    case .crash(let signal, let message):
      if crash == nil { crash = (signal, message) }
    case .making(let type, let site):
      making.append((type, site))
    case .reporting:
      phase = .reporting
    case .running:
      phase = .running
    }
  }
}
