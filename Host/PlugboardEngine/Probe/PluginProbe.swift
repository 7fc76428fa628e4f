import PlugboardKit

/// Learns what a plugin that is not loaded would provide (one that is
/// disabled, or left out by the profile): by loading it on its own, into
/// a container of its own, and reading the registrations it made.
///
/// Loading a plugin runs its code. The probe does it in the same process
/// as the rest of bring-up, under the same supervision: if the plugin
/// crashes or hangs, the supervisor quarantines it and starts over, and the
/// probe then reports it as failed with the supervisor's words ("plugin 'X'
/// (…) crashed with SIGSEGV … while being opened"). Unsupervised, a
/// crashing plugin takes the process with it.
package struct PluginProbe: Sendable {
  package init() {}

  /// Loads `entry` of `manifest` alone, whatever the manifest says about
  /// enabling it, and reports its registrations or why it did not load.
  /// Its stages are announced to `progress`; it is brought up with `settings`.
  package func probe(
    _ entry: PluginEntry, of manifest: Manifest, progress: ChildSession, settings: HostSettings
  )
    -> ProbeResult
  {
    let alone = manifest.alone(entry)
    // Alone, its requirements cannot hold, and it is leniently configured:
    // what it registers is wanted, whatever the profiles give it; its
    // configuration is checked against its declarations, which the report
    // carries, per profile.
    let deployment = Deployment.bringUp(
      alone, profile: nil, loader: PluginLoader(progress: progress), settings: settings,
      enforcingRequirements: false, configuration: ConfigurationResolver(lenient: true))
    if let problem = deployment.problems.first {
      return ProbeResult(entry: entry, outcome: .failed(problem.description))
    }
    let container = deployment.container
    let infos = (container.registrations + container.inactiveRegistrations)
      .filter { $0.site.plugin == entry.name }
      .sorted { ($0.site.fileID, $0.site.line) < ($1.site.fileID, $1.site.line) }
    let report = ProbeReport(
      plugin: entry.name, version: deployment.loadedPlugins.first?.version,
      registrations: infos.map(ProbeReport.Registration.init), problem: nil,
      settings: deployment.configurations.first?.configuration.declarations ?? [])
    return ProbeResult(entry: entry, outcome: .probed(report))
  }
}

extension Manifest {
  /// This manifest with `entry` as its only plugin, enabled in every
  /// profile, and no profiles: what probing it loads.
  func alone(_ entry: PluginEntry) -> Manifest {
    var alone = Manifest(
      path: path,
      plugins: [PluginEntry(index: entry.index, name: entry.name, path: entry.path, sha256: entry.sha256)],
      requirePins: requirePins, pluginRoots: pluginRoots, stageTimeout: stageTimeout)
    alone.libraryPins = libraryPins
    return alone
  }
}

extension ProbeReport.Registration {
  init(_ info: RegistrationInfo) {
    self.init(
      type: info.key.service.name, name: info.key.name, arguments: info.key.arguments.map(\.name),
      scope: info.scopeName, file: info.site.fileID, line: info.site.line,
      profiles: info.profiles?.expressions, kind: Kind(info.key.role))
  }
}

extension ProbeReport.Registration.Kind {
  init(_ role: ServiceKey.Role) {
    switch role.kind {
    case .decorator: self = .decorator
    case .contribution: self = .contribution
    default: self = .service
    }
  }
}
