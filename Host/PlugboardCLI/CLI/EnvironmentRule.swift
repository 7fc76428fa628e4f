import Foundation
import PlugboardAnalysis
import PlugboardEngine
import PlugboardKit

/// The one rule by which every command that reads a deployment (`run`,
/// `check`, `list`, `explain`, `graph`) treats the variables plugboard
/// reads, so that a pipeline that checks before it runs meets the same
/// verdicts in both steps:
///
/// - `PLUGBOARD_PROFILE` naming a profile the manifest does not declare is
///   misuse in every command (``DeploymentRequest/profile(for:)``), even in
///   `check`, which checks every declared profile whatever the variable
///   names;
/// - a `PLUGBOARD_CONFIG_` variable, or a file of the credentials folder,
///   naming no setting any plugin declares is a warning in every command:
///   `check` reports it as a finding, the others say it on standard error
///   (``warnings(of:probes:command:)``).
struct EnvironmentRule {
  let environment: [String: String]

  init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.environment = environment
  }

  /// The `unknownSettingVariable` findings `check` makes in `deployment`.
  ///
  /// Which settings exist is known from the loaded plugins; only when a
  /// variable names none of theirs are the plugins the profile leaves out
  /// probed (their code runs, as for `check`), unless `probes` already
  /// tells what they declare.
  func strayVariables(of deployment: Deployment, probes: [ProbeResult]? = nil) -> [Finding] {
    let variables =
      environment.keys.filter { $0.hasPrefix(ConfigurationVariable.prefix) }
      + SettingFiles.credentialVariables(environment)
    guard !variables.isEmpty else { return [] }
    let loaded = Set(
      deployment.configurations.flatMap { resolved in
        resolved.configuration.declarations.map {
          ConfigurationVariable.name(plugin: resolved.entry.name, setting: $0.name)
        }
      })
    guard variables.contains(where: { !loaded.contains(SettingFiles.variable(givenBy: $0)) }) else {
      return []
    }
    let known = probes ?? PluginProbe().probeUnloaded(of: deployment)
    return DeploymentChecker(deployment, probes: known, environment: environment).check().findings.filter {
      $0.kind == .unknownSettingVariable
    }
  }

  /// Each of ``strayVariables(of:probes:)`` as the warning line `command`
  /// prints on standard error, with its suggestion
  /// (`plugboard: run: warning: … ignored; did you mean …?`). Made while
  /// the supervisor still times the stages: probing runs plugin code.
  func warnings(of deployment: Deployment, probes: [ProbeResult]? = nil, command: String) -> [String] {
    strayVariables(of: deployment, probes: probes).map { finding in
      let hint = finding.suggestions.first.map { "; did you mean \($0)?" } ?? ""
      return "plugboard: \(command): warning: \(finding.title)\(hint)"
    }
  }
}
