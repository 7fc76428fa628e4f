import PlugboardKit

/// What a child `plugboard` process learned by loading one plugin on its
/// own: the registrations it would make, or why it could not load. This is
/// the JSON the hidden probe command prints and the parent reads.
public struct ProbeReport: Codable, Sendable, Equatable {
  public struct Registration: Codable, Sendable, Equatable {
    /// The fully qualified service type. Types are compared by name across
    /// processes: identities do not cross a process boundary.
    public let type: String
    public let name: String?
    public let arguments: [String]
    public let scope: String
    public let file: String
    public let line: Int
    /// The profile expressions it is limited to; nil for every profile.
    public let profiles: [String]?
  }

  public let plugin: String
  public let version: String?
  public let registrations: [Registration]
  /// Why the plugin could not be loaded, as `<stage>: <message>`.
  public let problem: String?
  /// The settings it declares (see Docs/configuration.md).
  public var settings: [SettingDeclaration] = []
}
