import PlugboardKit

/// One link of a finding's chain: a service, and the registration serving
/// it (plugin and site), or a marker saying why the link fails.
///
/// It is a ``ChainLink`` as a report carries it: the same key, site and
/// scope spelt as strings, so that `check --json` encodes it and a reader
/// needs no Kit type, plus the marker a finding adds. A resolution error
/// keeps the typed ``ChainLink``, and `ChainStep(link)` turns
/// one into the other.
public struct ChainStep: Sendable, Equatable, Encodable {
  /// The fully qualified service type.
  public let service: String
  /// The short form used in text: `AuthService named "Mock"`.
  public let display: String
  /// The registration's name, when it has one.
  public let name: String?
  /// The scope of the registration serving the link.
  public let scope: String?
  /// The plugin that made the registration, when one did.
  public let plugin: String?
  /// `#fileID` and line of the registration, when one serves the link.
  public let file: String?
  public let line: Int?
  /// Why the link fails: "✗ not registered", "✗ cycle closes here".
  public let marker: String?

  /// A link served by `info`.
  public init(_ info: RegistrationInfo, marker: String? = nil) {
    self.init(key: info.key, site: info.site, scope: info.scope, marker: marker)
  }

  /// `link`, as a finding reports it.
  public init(_ link: ChainLink, marker: String? = nil) {
    self.init(key: link.key, site: link.site, scope: link.scope, marker: marker)
  }

  /// A link for `key`, served by the registration at `site` if any.
  public init(key: ServiceKey, site: RegistrationSite?, scope: ObjectScope?, marker: String?) {
    service = key.service.name
    display = key.shortDescription
    name = key.name
    self.scope = scope?.description
    plugin = site?.plugin
    file = site?.fileID
    line = site?.line
    self.marker = marker
  }

  /// `AuthService  (registered at Auth/AuthAssembly.swift:7 in plugin Auth)`,
  /// in the style of PlugboardKit's resolution errors.
  public var text: String {
    var place: [String] = []
    if let file, let line {
      place.append("registered at \(file):\(line)" + (plugin.map { " in plugin \($0)" } ?? ""))
    }
    if let marker { place.append(marker) }
    return place.isEmpty ? display : "\(display)  (\(place.joined(separator: "  ")))"
  }
}
