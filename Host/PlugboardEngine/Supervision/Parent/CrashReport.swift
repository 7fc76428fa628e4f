#if canImport(Glibc)
  import Glibc
#endif

/// What the supervisor says about a child that came down: as a failed
/// plugin (for the next child to report in the ordinary way), or in lines
/// of its own when no plugin was in a stage of its own.
struct CrashReport {
  let ending: ChildEnding
  let watch: StageWatch

  static let disableHint = #"fix the plugin, or set "enabled": false in the manifest to deploy without it"#
  static let slowHint =
    #"fix the plugin; if it is only slow, raise "stageTimeout" in the manifest or pass --stage-timeout"#

  /// The frame (or faulting address) the crash is blamed on, when the
  /// child's crash record has one in a plugin's library.
  var blamedSite: CrashSite? {
    guard watch.crash != nil, case .signaled = ending else { return nil }
    return CrashSite.blamed(in: watch.sites)
  }

  /// The plugin to set aside for a child that came down during bring-up
  /// in `stage` (of plugin `stagePlugin`, if it is one of a plugin's own),
  /// and the problem to report for it: the plugin whose library holds the
  /// crashing code (see ``CrashSite/blamed(in:)``), whichever stage it
  /// crashed in; else the plugin in its own stage. Nil when no plugin can
  /// be blamed (plugboard's own stages, or resolving registrations, whose
  /// crash names the registration being made instead).
  func blame(stage: LoadStage, stagePlugin: String?) -> (plugin: String, problem: DeploymentProblem)? {
    if let site = blamedSite, let plugin = site.plugin, plugin != stagePlugin, !stage.resolvesRegistrations {
      let during: String
      if let stagePlugin, let clause = Self.otherClause(for: stage, plugin: stagePlugin) {
        during = clause
      } else {
        during = "during plugboard's own stage '\(stage.rawValue)'"
      }
      let detail = "crashed with \(how)\(Self.at(site)) \(during) — \(Self.disableHint)"
      return (plugin, .plugin(plugin, file: site.object ?? "?", stage: stage, Terminal.sanitize(detail)))
    }
    guard let stagePlugin, let problem = pluginProblem(stage: stage, plugin: stagePlugin) else { return nil }
    return (stagePlugin, problem)
  }

  /// The problem to report for `plugin`, which was in `stage` when the
  /// child ended; nil when `stage` is not one of a plugin's own.
  func pluginProblem(stage: LoadStage, plugin: String) -> DeploymentProblem? {
    guard let clause = Self.clause(for: stage) else { return nil }
    let file = watch.file ?? "?"
    let detail: String
    switch ending {
    case .signaled(SIGPIPE) where watch.crash == nil:
      // The supervisor asked plugboard's output first (see
      // SignalName.isRequest): still read, so the pipe was plugin code's.
      detail =
        "died of \(SignalName.describe(SIGPIPE)) \(clause), with plugboard's own output still open: plugin code "
        + "gave SIGPIPE back its default action, which plugboard ignores — \(Self.disableHint)"
    case .signaled(let signal) where watch.selfSignal == signal:
      detail =
        "sent its own process \(SignalName.describe(signal)) \(clause); a plugin must never end the host's "
        + "process — \(Self.disableHint)"
    case .signaled:
      let site = blamedSite.flatMap { $0.plugin == plugin ? Self.at($0) : nil } ?? ""
      detail = "crashed with \(how)\(site) \(clause) — \(Self.disableHint)"
    case .exited(let status):
      detail =
        "ended the process with exit status \(status) \(clause); a plugin must never end the host's "
        + "process — \(Self.disableHint)"
    case .hung(let limit):
      detail =
        "was stopped after \(ProgressEvent.seconds(limit)) s \(clause): it never returned — \(Self.slowHint)"
    }
    return .plugin(plugin, file: file, stage: stage, Terminal.sanitize(detail))
  }

  /// A stop request (`signal`) came during bring-up and the child did not
  /// end by it: it was killed. Names the plugin whose code it was in.
  func ignoredRequestLines(_ signal: Int32) -> [String] {
    guard case .hung = ending, let stage = watch.stage, let plugin = watch.plugin,
      let clause = Self.clause(for: stage)
    else { return [] }
    return [
      Terminal.sanitize(
        "plugboard: \(stage.rawValue): plugin '\(plugin)' (\(watch.file ?? "?")) ignored the request to stop "
          + "(\(SignalName.name(signal))) \(clause) and was killed")
    ]
  }

  /// The child came down in `stage`, which is not a plugin's own: while
  /// registrations were resolved (a factory: the `Application`'s for
  /// `run`, each registration's for `check --resolve`), or in plugboard's
  /// own work.
  func stageLines(stage: LoadStage, command: String) -> [String] {
    let outcome: String
    switch ending {
    case .signaled: outcome = "crashed with \(how)"
    case .exited(let status): outcome = "ended the process with exit status \(status)"
    case .hung(let limit): outcome = "was stopped after \(ProgressEvent.seconds(limit)) s"
    }
    guard stage.resolvesRegistrations else {
      return [
        "plugboard: \(stage.rawValue): plugboard's process \(outcome) during this stage, which runs no plugin code "
          + "— run with --unsupervised to see the failure directly"
      ].map(Terminal.sanitize)
    }
    // `check --resolve` resolves every plugin's registrations: it names
    // the plugin whose code crashed, else the one whose registration it
    // was resolving (as the stage record has it).
    let plugin = stage == .resolveApplication ? nil : blamedSite?.plugin ?? watch.plugin
    let what = "plugboard: \(stage.rawValue): \(plugin.map { "plugin '\($0)' " } ?? "")\(outcome)"
    let unfinished =
      stage == .resolveApplication
      ? "the application was not run" : "the check stopped there and printed no report"
    let lines =
      if let innermost = watch.making.last {
        factoryLines(what, making: innermost, command: command, unfinished: unfinished)
      } else {
        resolutionLines(what, stage: stage, plugin: plugin, command: command, unfinished: unfinished)
      }
    return lines.map(Terminal.sanitize)
  }

  /// ``stageLines(stage:command:)`` when the stage record names the
  /// registration being made, `innermost`: its factory is at fault, and
  /// the chain that led to it is shown.
  private func factoryLines(
    _ what: String, making innermost: (type: String, site: String), command: String, unfinished: String
  ) -> [String] {
    var lines = ["\(what) while making \(innermost.type) (registered at \(innermost.site))"]
    if watch.making.count > 1 {
      lines.append(
        "plugboard:   chain: " + watch.making.map { "\($0.type) (\($0.site))" }.joined(separator: " → "))
    }
    let action: String
    if case .hung = ending {
      action = "make the factory of \(innermost.type) return"
    } else {
      action = "fix the factory of \(innermost.type)"
    }
    lines.append("plugboard: \(command): \(action); \(unfinished)")
    return lines
  }

  /// ``stageLines(stage:command:)`` when the stage record names no
  /// registration being made: what was being resolved, as far as known.
  private func resolutionLines(
    _ what: String, stage: LoadStage, plugin: String?, command: String, unfinished: String
  ) -> [String] {
    let resolving =
      stage == .resolveApplication
      ? "the Application was being resolved"
      : watch.plugin.map {
        $0 == plugin
          ? "one of its registrations was being resolved"
          : "a registration of plugin '\($0)' was being resolved"
      }
        ?? "a registration was being resolved"
    return [
      "\(what) while \(resolving)",
      "plugboard: \(command): fix the failing factory; \(unfinished)",
    ]
  }

  /// The application came down by a signal after it started.
  func applicationLines(command: String) -> [String] {
    var line = "plugboard: \(LoadStage.running.rawValue): the application crashed with \(how)\(inPlugin)"
    if let innermost = watch.making.last {
      line += " while making \(innermost.type) (registered at \(innermost.site))"
    }
    return [Terminal.sanitize(line)]
  }

  /// Exit-time plugin code (a library destructor, an `atexit` handler)
  /// crashed or hung after the report was written or the application
  /// ended.
  func exitLines(command: String) -> [String] {
    let outcome: String
    switch ending {
    case .hung(let limit): outcome = "did not finish within \(ProgressEvent.seconds(limit)) s"
    default: outcome = "crashed with \(how)\(inPlugin)"
    }
    let after = watch.exiting?.afterApplication == true ? "the application ended" : "the report was written"
    let stopped = if case .hung = ending { "; it was stopped" } else { "" }
    return [
      Terminal.sanitize(
        "plugboard: \(command): plugin code run at exit (a library destructor or an atexit handler) \(outcome) "
          + "after \(after)\(stopped)")
    ]
  }

  /// plugboard's own process came down after bring-up, writing its report.
  func internalLines(command: String) -> [String] {
    let outcome: String
    switch ending {
    case .signaled: outcome = "crashed with \(how)"
    case .exited(let status): outcome = "ended with exit status \(status)"
    case .hung: outcome = "hung"
    }
    return [
      Terminal.sanitize(
        "plugboard: \(command): plugboard's process \(outcome) after the plugins were loaded; "
          + "this is a bug in plugboard — run with --unsupervised to see it directly")
    ]
  }

  /// `SIGSEGV (segmentation fault: …)`, or for a Swift runtime trap
  /// `SIGILL (a Swift runtime trap: "…: Fatal error: …")`.
  private var how: String {
    // The signal the child caught, rather than the one that ended it: a
    // crash handler stopped by its alarm ends the process with SIGALRM.
    let signal: Int32
    switch (watch.crash?.signal, ending) {
    case (let caught?, _): signal = caught
    case (nil, .signaled(let number)): signal = number
    default: signal = 0
    }
    if let message = watch.crash?.message {
      return "\(SignalName.name(signal)) (a Swift runtime trap: \"\(message)\")"
    }
    if signal == SIGSEGV, CrashSite.isStackOverflow(watch.sites) {
      return "\(SignalName.name(signal)) (stack overflow)"
    }
    return SignalName.describe(signal)
  }

  /// ` in plugin 'Foo' (libFoo.so+0x1234)`: whose code crashed, for the
  /// crashes that set no plugin aside (the running application, exit-time
  /// code); empty when no plugin's library holds the crashing code.
  private var inPlugin: String {
    guard let site = blamedSite, let plugin = site.plugin else { return "" }
    return " in plugin '\(plugin)'" + (site.location.map { " (\($0))" } ?? "")
  }

  /// ` in libFoo.so+0x1234`, where `site` is; empty when no object owns it.
  private static func at(_ site: CrashSite) -> String {
    site.location.map { " in \($0)" } ?? ""
  }

  /// Where another plugin's bring-up was, as a clause, for a crash blamed
  /// by address on a plugin that was not in its own stage; nil for the
  /// stages that run no plugin code of one plugin.
  static func otherClause(for stage: LoadStage, plugin: String) -> String? {
    let other = "plugin '\(plugin)'"
    return switch stage {
    case .locate, .vet: "while \(other) was being vetted"
    case .open: "while \(other) was being opened (in its library initialisers)"
    case .findEntry: "while the entry point plugboard_entry_v1 of \(other) ran"
    case .checkVersions: "while the descriptor of \(other) was being read"
    case .makeAssemblies: "while \(other) was making its assemblies"
    case .configure: "while \(other) was making its assemblies from its configuration"
    case .assemble: "while \(other) was assembling"
    case .loadedHook: "in the loaded(resolver:) hook of \(other)"
    default: nil
    }
  }

  /// Where in its plugin's bring-up a stage is, as a clause; nil for the
  /// stages that run no plugin code of one plugin.
  static func clause(for stage: LoadStage) -> String? {
    switch stage {
    case .locate, .vet: "while being vetted"
    case .open: "while being opened (in its library initialisers)"
    case .findEntry: "in its entry point plugboard_entry_v1"
    case .checkVersions: "while its descriptor was being read"
    case .makeAssemblies: "while making its assemblies"
    case .configure: "while making its assemblies from its configuration"
    case .assemble: "while assembling"
    case .loadedHook: "in its loaded(resolver:) hook"
    default: nil
    }
  }
}
