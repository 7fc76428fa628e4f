import PlugboardAnalysis
import PlugboardKit

/// The result of `plugboard check`: what was checked and every finding.
/// The text report and `--json` are both made from it.
public struct CheckReport: Sendable, Encodable {
  /// The manifest's absolute path.
  public let manifest: String
  /// The active profile, when the manifest declares profiles.
  public let profile: String?
  public let plugins: Int
  public let loaded: Int
  public let registrations: Int
  public let findings: [Finding]
  /// The loaded plugins in the order they assembled, each with the
  /// requirements that placed it (``AssemblyOrder``).
  public let loadOrder: [AssemblyOrder.Step]
  /// Whether requirements changed the order from the manifest's (then the
  /// text report shows it).
  public let isReordered: Bool
  /// The PlugboardKit each loaded plugin was compiled against, in the
  /// manifest's order.
  public let kits: [PluginKit]
  /// Who signed each loaded plugin and the neighbours loaded with it, in
  /// the manifest's order, plugin first; empty when no signature was
  /// checked.
  package let signatures: [LibrarySignature]

  /// The PlugboardKit a loaded plugin was compiled against.
  public struct PluginKit: Sendable, Equatable, Encodable {
    public let plugin: String
    /// What the plugin recorded, such as `1.0.0+1f2e…`.
    public let version: String
    /// "same" when it is the host's minor release, "older" when it is an
    /// older one of the host's major version, which the host accepts.
    public let compatibility: String
  }

  /// - Parameter registrations: the plugins' registrations, plugboard's
  ///   default Logger aside.
  init(deployment: Deployment, registrations: Int, findings: [Finding]) {
    manifest = deployment.manifest.path
    profile = deployment.profile?.name
    plugins = deployment.outcomes.count
    loaded = deployment.loadedPlugins.count
    self.registrations = registrations
    self.findings = findings
    loadOrder = deployment.assemblyOrder?.steps ?? []
    let host = HostVersions.current.kit
    kits = deployment.loadedPlugins.map { plugin in
      let kit = PluginKitVersion(plugin: plugin.kitVersion, host: host)
      return PluginKit(plugin: plugin.name, version: kit.version, compatibility: kit.compatibility)
    }
    signatures = deployment.loadedPlugins.flatMap(\.signatures)
    let assembled = Set(loadOrder.map(\.plugin))
    isReordered =
      loadOrder.map(\.plugin) != deployment.outcomes.map(\.entry.name).filter { assembled.contains($0) }
  }

  public var errors: Int { findings.filter { $0.severity == .error }.count }
  public var warnings: Int { findings.filter { $0.severity == .warning }.count }
  /// No errors (warnings allowed): `check` exits with status 0.
  public var healthy: Bool { errors == 0 }

  private enum CodingKeys: String, CodingKey {
    case manifest, profile, plugins, loaded, registrations, findings, errors, warnings, healthy, loadOrder
    case kits, signatures
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(manifest, forKey: .manifest)
    try container.encodeIfPresent(profile, forKey: .profile)
    try container.encode(plugins, forKey: .plugins)
    try container.encode(loaded, forKey: .loaded)
    try container.encode(registrations, forKey: .registrations)
    try container.encode(findings, forKey: .findings)
    try container.encode(loadOrder, forKey: .loadOrder)
    try container.encode(kits, forKey: .kits)
    try container.encode(signatures, forKey: .signatures)
    try container.encode(errors, forKey: .errors)
    try container.encode(warnings, forKey: .warnings)
    try container.encode(healthy, forKey: .healthy)
  }
}
