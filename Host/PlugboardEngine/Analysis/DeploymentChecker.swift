import Foundation
import PlugboardAnalysis
import PlugboardKit

/// `plugboard check`'s analysis: a function of a deployment that was
/// brought up (its container, what became of each plugin, its manifest)
/// and of what its disabled plugins would provide. The graph's findings
/// come from PlugboardKit's ``GraphAnalysis``, the one `Container.check`
/// runs in a unit test, told about the plugins through ``ValidationHooks``;
/// the deployment's own (load failures, libraries, the loader's
/// environment, probes, settings) are made here. Nothing is resolved and
/// no factory runs (unless ``resolvingFindings()`` is asked for, as `check
/// --resolve` does); see ``DependencyGraph`` for what that can and cannot
/// see. A caller checking several profiles brings the deployment up once
/// per profile and checks each.
package struct DeploymentChecker {
  package let deployment: Deployment
  let probes: [ProbeResult]
  /// The container's graph and the findings made from it alone.
  let analysis: GraphAnalysis
  var graph: DependencyGraph { analysis.graph }
  /// The environment plugboard runs in, for what it changes about loading.
  let environment: [String: String]

  /// - Parameters:
  ///   - probes: what each plugin that was not loaded would provide
  ///     (see ``PluginProbe``); empty to check without that knowledge.
  ///   - environment: the variables the deployment was brought up under
  ///     (`LD_LIBRARY_PATH` is warned about).
  package init(
    _ deployment: Deployment, probes: [ProbeResult] = [],
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.deployment = deployment
    self.probes = probes
    self.environment = environment
    let failed = Set(
      deployment.outcomes.compactMap { outcome -> String? in
        guard case .failed(let entry, _) = outcome else { return nil }
        return entry.name
      })
    self.analysis = GraphAnalysis(
      container: deployment.container, profile: deployment.container.activeProfile, failedPlugins: failed,
      isDefault: DefaultLogger.isDefault)
  }

  /// Every finding, errors first, each group in the order found;
  /// `resolved`, the findings of ``resolvingFindings()`` when `check
  /// --resolve` made them, come after the graph's own.
  package func check(adding resolved: [Finding] = []) -> CheckReport {
    let hooks = ValidationHooks(
      unserved: { unserved($0, chain: $1, unreachable: $2, suggestions: $3) }, missingNotes: unknownProviders,
      position: manifestPosition(of:), exclusionSource: deployment.manifest.path,
      exclusionRules: "the manifest's \"contributions\" rules",
      providersElsewhere: { providersElsewhere(of: $0).map(\.sentence) }, settingLookup: settingLookup,
      shown: Terminal.sanitize)
    var findings =
      loadFailures() + analysis.missingApplication(hooks) + analysis.missingDependencies(hooks)
      + analysis.cycles()
      + analysis.captiveDependencies() + analysis.duplicateRegistrations(hooks) + sharedLibraryConflicts()
      + analysis.undeclaredDependencies() + probeFailures() + libraryPath() + loaderVariables()
      + temporaryFolder() + optionalPlugins() + missingContributions()
      + analysis.extensionPointCardinalities(hooks)
      + configurationFindings(hooks)
    findings += analysis.lifecycleHookScopes()
    findings += analysis.synchronousDependenciesOnAsync()
    findings += analysis.disposeHooksThatNeverRun()
    findings += analysis.decoratorsWithoutTarget() + analysis.asyncDecoratorsOfSynchronousRegistrations()
    findings += resolved
    findings += analysis.nonisolatedDependenciesOnMainActor()
    let ordered = findings.filter { $0.severity == .error } + findings.filter { $0.severity == .warning }
    // The plugins' registrations: plugboard's default Logger is not one.
    let registrations = graph.nodes.count { !DefaultLogger.isDefault($0.info.site) }
    return CheckReport(deployment: deployment, registrations: registrations, findings: ordered)
  }

  // MARK: Facts about plugins

  /// The outcome of the plugin called `name`.
  func outcome(of name: String?) -> PluginOutcome? {
    deployment.outcomes.first { $0.entry.name == name }
  }

  /// `plugins[2]`, for the plugin called `name`.
  func manifestPosition(of name: String?) -> String {
    outcome(of: name).map { "plugins[\($0.entry.index)]" } ?? "plugins[?]"
  }

  /// Why a plugin that was not loaded was left out, as a clause naming
  /// it: "plugin 'AuthMock' is not loaded in profile 'live' (it loads in
  /// 'mock')", or "plugin 'Keychain' is disabled in plugins.json (…)".
  func notLoaded(_ entry: PluginEntry) -> String {
    guard entry.enabled else {
      return "plugin '\(entry.name)' is disabled in plugins.json (plugins[\(entry.index)].enabled is false)"
    }
    let loads = entry.profiles.map { " (it loads in \($0))" } ?? ""
    guard let profile = deployment.profile else { return "plugin '\(entry.name)' is not loaded\(loads)" }
    return "plugin '\(entry.name)' is not loaded in profile '\(profile.name)'\(loads)"
  }

  /// The library a plugin was loaded from.
  func library(of plugin: String?) -> String? {
    guard case .loaded(let loaded) = outcome(of: plugin) else { return nil }
    return loaded.file
  }
}
