import PlugboardKit

/// What a child `plugboard` process learned by loading one plugin on its
/// own: the registrations it would make, or why it could not load. This is
/// the JSON the hidden probe command prints and the parent reads.
package struct ProbeReport: Codable, Sendable, Equatable {
  package struct Registration: Codable, Sendable, Equatable {
    /// The fully qualified service type. Types are compared by name across
    /// processes: identities do not cross a process boundary.
    package let type: String
    package let name: String?
    package let arguments: [String]
    package let scope: String
    package let file: String
    package let line: Int
    /// The profile expressions it is limited to; nil for every profile.
    package let profiles: [String]?
    /// What kind of registration it is: a service, or a decorator or
    /// contribution, whose name is the one its author gave it.
    package var kind: Kind = .service

    /// The kinds of registration a probe reports.
    package enum Kind: String, Codable, Sendable {
      case service, decorator, contribution
    }
  }

  package let plugin: String
  package let version: String?
  package let registrations: [Registration]
  /// Why the plugin could not be loaded, as `<stage>: <message>`.
  package let problem: String?
  /// The settings it declares (see Docs/configuration.md).
  package var settings: [SettingDeclaration] = []
}
