/// Where a registration was made: the source location of the `register` call
/// and, when the host assembled it from a plugin, that plugin's name.
public struct RegistrationSite: Hashable, Sendable, CustomStringConvertible {
  /// `#fileID` of the `register` call, such as `Auth/AuthAssembly.swift`.
  public let fileID: String
  public let line: Int
  /// The plugin whose assembly made the registration, if any.
  public let plugin: String?

  public init(fileID: String, line: Int, plugin: String? = nil) {
    self.fileID = fileID
    self.line = line
    self.plugin = plugin
  }

  /// `Auth/AuthAssembly.swift:12 in plugin Auth`.
  public var description: String {
    let place = "\(fileID):\(line)"
    guard let plugin else { return place }
    return "\(place) in plugin \(plugin)"
  }
}
