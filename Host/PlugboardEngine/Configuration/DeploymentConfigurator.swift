import PlugboardKit
import PlugboardSupervision
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The configure stage of bring-up: resolves each loaded plugin's
/// configuration and hands it over, so the plugin makes its assemblies
/// from it. A plugin whose configuration has problems (a required setting
/// with no value, a value of the wrong type, a setting it does not
/// declare) fails at this stage, before any of its assemblies run.
package enum DeploymentConfigurator {
  /// Configures each loaded plugin of `outcomes`; with
  /// `hidingProcessHoldingSecrets` (``HostSettings/hidesProcessHoldingSecrets``),
  /// the process becomes non-dumpable once it holds a secret.
  static func configure(
    _ outcomes: [PluginOutcome], profile: ProfileDeclaration?, resolver: ConfigurationResolver,
    progress: ChildSession, hidingProcessHoldingSecrets: Bool
  ) -> (outcomes: [PluginOutcome], configurations: [ResolvedConfiguration]) {
    var result = outcomes
    var configurations: [ResolvedConfiguration] = []
    for (index, outcome) in outcomes.enumerated() {
      guard case .loaded(let plugin) = outcome else { continue }
      let (configuration, unknown) = resolver.resolve(
        plugin.entry, profile: profile, declarations: plugin.bundle.settings)
      var resolved = ResolvedConfiguration(
        entry: plugin.entry, configuration: configuration, unknown: unknown)
      resolved.fileProblems = resolver.fileProblems(of: plugin.entry, declarations: plugin.bundle.settings)
      configurations.append(resolved)
      forgetSecrets(of: plugin, resolved)
      if hidingProcessHoldingSecrets, holdsSecret(resolved) { hideProcess() }
      if let problem = problem(of: plugin, resolved, progress: progress) {
        result[index] = .failed(plugin.entry, problem)
      }
    }
    return (result, configurations)
  }

  private static func problem(
    of plugin: LoadedPlugin, _ resolved: ResolvedConfiguration, progress: ChildSession
  ) -> DeploymentProblem? {
    func failure(_ detail: String) -> DeploymentProblem {
      .plugin(plugin.name, file: plugin.file, stage: .configure, detail)
    }
    let issues =
      resolved.problems.map { Terminal.sanitize($0.detail) }
      + resolved.unknown.map { Terminal.sanitize(ConfigurationText.unknown($0)) }
      + resolved.fileProblems.map(\.text)
    if !issues.isEmpty {
      return failure(
        "is not configured correctly: " + issues.joined(separator: "; ")
          + " (plugboard check lists each with its fix; see Docs/configuration.md)")
    }
    progress.stage(.configure, plugin.name, file: plugin.file)
    do {
      try plugin.bundle.configure(with: resolved.configuration)
    } catch {
      return failure("failed to make its assemblies from its configuration: \(Terminal.sanitize("\(error)"))")
    }
    return nil
  }

  private static func holdsSecret(_ resolved: ResolvedConfiguration) -> Bool {
    resolved.configuration.declarations.contains {
      $0.secret && resolved.configuration.values[$0.name] != nil
    }
  }

  /// Once, for the first secret: the process stays non-dumpable to its end.
  private static func hideProcess() {
    guard !processHidden.exchange(true, ordering: .relaxed) else { return }
    makeUndumpable("the process that holds secret settings")
  }

  /// Makes this process non-dumpable (`PR_SET_DUMPABLE`); when the kernel
  /// refuses, says so on standard error, naming what `process` is.
  package static func makeUndumpable(_ process: String) {
    guard plugboard_make_undumpable() != 0 else { return }
    StandardError.write(
      "plugboard: warning: could not make \(process) non-dumpable: " + String(cString: strerror(errno)),
      priority: .warning)
  }

  /// Whether ``hideProcess()`` ran: the process, not a deployment, is
  /// what it changed.
  private static let processHidden = Atomic<Bool>(false)

  /// Once a secret setting's value is read, its variable leaves the
  /// process's environment, so that no process plugin code starts
  /// inherits it (the value is kept in the plugin's configuration).
  private static func forgetSecrets(of plugin: LoadedPlugin, _ resolved: ResolvedConfiguration) {
    for declaration in resolved.configuration.declarations where declaration.secret {
      unsetenv(ConfigurationVariable.name(plugin: plugin.name, setting: declaration.name))
    }
  }
}
