import PlugboardKit

/// What `plugboard list` shows, as data: the same model feeds the table and
/// `--json`, so the two never disagree. Field names are the JSON's.
package struct DeploymentListing: Encodable, Sendable {
  package struct Host: Encodable, Sendable {
    package let plugboard: String
    package let kit: String
    package let abi: UInt32
    package let swift: String
  }

  package struct Plugin: Encodable, Sendable {
    package let name: String
    /// What the plugin reports for itself; absent unless it loaded.
    package let version: String?
    /// The PlugboardKit it was compiled against, and whether that is the
    /// host's release or an older compatible one; absent unless it loaded.
    package var kit: PluginKitVersion? = nil
    /// The library: canonical when it loaded, as resolved otherwise.
    package let file: String
    /// Whether it loaded, and if not, why not.
    package let status: Status
    /// The stage it failed at, when it failed.
    package let stage: LoadStage?
    package internal(set) var registrations: [Registration]
    /// True when the manifest marks it optional; absent otherwise.
    package var optional: Bool? = nil
    /// The plugins it requires, with their version ranges
    /// (`Shell 1.0.0..<2.0.0`); absent when it loaded requiring none, or
    /// did not load.
    package var requires: [String]? = nil
    /// The drop-in folder it was discovered in; absent for a listed one.
    package var discoveredIn: String? = nil
    /// The settings it declares, resolved for the active profile (secrets
    /// redacted); empty unless it loaded and declares settings.
    package internal(set) var settings: [SettingListing] = []
    /// Who signed it and the neighbours loaded with it, plugin first;
    /// absent when no signature was checked.
    package internal(set) var signatures: [LibrarySignature]? = nil
  }

  /// What became of a plugin; in JSON, the case's name. Every case is in
  /// Docs/schemas/list.schema.json and Docs/commands.md.
  package enum Status: String, Encodable, Sendable, CaseIterable {
    case loaded
    /// The manifest says `"enabled": false`.
    case disabled
    /// Enabled, but left out by the active profile.
    case excluded
    case failed
  }

  package struct Registration: Encodable, Sendable {
    /// The fully qualified service type.
    package let type: String
    package let name: String?
    /// The runtime argument types, in order.
    package let arguments: [String]
    package let scope: String
    /// `#fileID` and line of the `register` call.
    package let file: String
    package let line: Int
    /// For a forwarded type (`.implements`, `forward`), the registration
    /// whose instance serves it: `Engine named "main"`; absent otherwise.
    package let forwardsTo: String?
    /// The lifecycle hooks it carries, `start` and/or `stop`
    /// (`Docs/lifecycle.md`); absent when it has none.
    package var hooks: [String]? = nil
    /// For a contribution: its extension point and order (its `name` is
    /// the one it was given); absent for a plain registration.
    package var contribution: ContributionMark? = nil
    /// For a decorator: the registration it decorates and its order (its
    /// `name` is the one it was given); absent for any other registration.
    package var decorator: DecoratorMark? = nil
  }

  package struct Problem: Encodable, Sendable {
    package let stage: LoadStage
    package let plugin: String?
    package let file: String?
    package let message: String
    package let dlerror: String?
  }

  /// ``JSONText/formatVersion`` (Docs/schemas/list.schema.json).
  package let formatVersion = JSONText.formatVersion
  /// The manifest's absolute path.
  package let manifest: String
  package let host: Host
  /// True when nothing is wrong (the exit status is then 0).
  package let healthy: Bool
  package let plugins: [Plugin]
  package let problems: [Problem]
  /// The active profile and what it changed; absent when the manifest
  /// declares no profiles.
  package internal(set) var profile: ProfileEffects?
  /// Which Logger the services get; absent when the manifest could not
  /// be read.
  package internal(set) var logger: LoggerChoice?
  /// Every extension point with its contributions, in resolution order.
  package internal(set) var extensionPoints: [ExtensionPointListing] = []
}

extension DeploymentListing {
  /// The listing of a deployment that was brought up.
  package init(_ deployment: Deployment, host: HostVersions = .current) {
    // Grouped once: filtering every registration for each plugin made a
    // listing quadratic in plugins (slow at 200 plugins of 20).
    // Each registration is read in place and converted once: a copy of a
    // RegistrationInfo retains a dozen references, thousands of times.
    let registrations = deployment.container.registrations
    let hooks = LifecycleHookNames(deployment.container)
    // A plugin's registrations are made one after another, so a run of
    // them is collected before its plugin's name is hashed, once per run.
    var byPlugin: [String: [Registration]] = [:]
    var run: (plugin: String, registrations: [Registration])?
    for index in registrations.indices {
      var registration = Registration(registrations[index])
      registration.hooks = hooks.of(registrations[index])
      registration.contribution = ContributionMark.of(registrations[index].key, in: deployment.container)
      registration.decorator = DecoratorMark.of(registrations[index].key, in: deployment.container)
      let plugin = registrations[index].site.plugin ?? ""
      if run?.plugin != plugin {
        if let finished = run { byPlugin[finished.plugin, default: []] += finished.registrations }
        run = (plugin, [])
      }
      run?.registrations.append(registration)
    }
    if let finished = run { byPlugin[finished.plugin, default: []] += finished.registrations }
    // By name once, as the registrations: a search per plugin was quadratic.
    let configurations = Dictionary(
      deployment.configurations.map { ($0.entry.name, $0) }, uniquingKeysWith: { first, _ in first })
    self.init(
      manifest: deployment.manifest.path, host: Host(host), problems: deployment.problems,
      plugins: deployment.outcomes.map { outcome in
        var plugin = Plugin(
          outcome, in: deployment.manifest, registrations: byPlugin[outcome.entry.name] ?? [])
        if case .loaded(let loaded) = outcome {
          plugin.kit = PluginKitVersion(plugin: loaded.kitVersion, host: host.kit)
        }
        if case .loaded = outcome, let resolved = configurations[outcome.entry.name] {
          plugin.settings = SettingListing.of(resolved)
        }
        return plugin
      })
    profile = ProfileEffects(deployment)
    logger = LoggerChoice(registrations: registrations)
    extensionPoints = ExtensionPointListing.of(deployment.container, registrations: registrations)
  }

  /// The listing of a deployment whose manifest could not be read.
  package init(manifestPath: String, problems: [DeploymentProblem], host: HostVersions = .current) {
    self.init(manifest: manifestPath, host: Host(host), problems: problems, plugins: [])
  }

  private init(manifest: String, host: Host, problems: [DeploymentProblem], plugins: [Plugin]) {
    self.init(
      manifest: manifest, host: host, healthy: problems.isEmpty, plugins: plugins,
      problems: problems.map(Problem.init))
  }
}

extension DeploymentListing.Host {
  init(_ versions: HostVersions) {
    self.init(
      plugboard: HostVersions.plugboard, kit: versions.kit, abi: versions.abi, swift: versions.compiler)
  }
}

extension DeploymentListing.Plugin {
  /// `registrations` are the plugin's own, in registration order.
  init(_ outcome: PluginOutcome, in manifest: Manifest, registrations: [DeploymentListing.Registration]) {
    let entry = outcome.entry
    switch outcome {
    case .loaded(let plugin):
      self.init(
        name: entry.name, version: plugin.version, file: plugin.file, status: .loaded, stage: nil,
        registrations: registrations)
      let requirements = plugin.bundle.requirements.map(\.description)
      requires = requirements.isEmpty ? nil : requirements
      signatures = plugin.signatures.isEmpty ? nil : plugin.signatures
    case .disabled:
      // Enabled but not opened: the active profile left it out.
      self.init(
        name: entry.name, version: nil, file: manifest.absolutePath(of: entry),
        status: entry.enabled ? .excluded : .disabled, stage: nil, registrations: [])
    case .failed(_, let problem):
      self.init(
        name: entry.name, version: nil, file: problem.file ?? manifest.absolutePath(of: entry),
        status: .failed, stage: problem.stage, registrations: [])
    }
    optional = entry.optional ? true : nil
    discoveredIn = entry.discoveredIn
  }
}

extension DeploymentListing.Registration {
  init(_ info: RegistrationInfo) {
    self.init(
      type: info.key.service.name, name: info.key.name,
      // A decorator takes the instance it wraps: no argument a caller passes.
      arguments: info.key.isDecorator ? [] : info.key.arguments.map(\.name),
      scope: info.scopeName, file: info.site.fileID, line: info.site.line,
      forwardsTo: info.forwardsTo?.description)
  }
}

extension DeploymentListing.Problem {
  package init(_ problem: DeploymentProblem) {
    self.init(
      stage: problem.stage, plugin: problem.plugin, file: problem.file, message: problem.message,
      dlerror: problem.systemMessage)
  }
}
