/// Another plugin a plugin needs, by the name that plugin reports, with
/// the versions it accepts. Declared in the plugin's entry point:
///
/// ```swift
/// PluginExport.descriptor(
///   name: "Auth", version: "1.0.0", requires: [.plugin("Networking", "1.0.0"..<"2.0.0")]
/// ) { [AuthAssembly()] }
/// ```
///
/// The host assembles a required plugin before the plugins that require
/// it, and refuses a plugin whose requirement is missing, has a version
/// outside the range, or is part of a cycle of requirements.
public struct PluginRequirement: Sendable, Hashable, CustomStringConvertible {
  /// The required plugin's name.
  public let name: String
  /// The lowest version accepted, inclusive; nil for no lower bound.
  public let lowerBound: SemanticVersion?
  /// The first version no longer accepted; nil for no upper bound.
  public let upperBound: SemanticVersion?

  public init(name: String, lowerBound: SemanticVersion?, upperBound: SemanticVersion?) {
    self.name = name
    self.lowerBound = lowerBound
    self.upperBound = upperBound
  }

  /// The plugin `name`, in any version.
  public static func plugin(_ name: String) -> PluginRequirement {
    PluginRequirement(name: name, lowerBound: nil, upperBound: nil)
  }

  /// The plugin `name` in a version of `versions` (`"1.0.0"..<"2.0.0"`).
  public static func plugin(_ name: String, _ versions: Range<SemanticVersion>) -> PluginRequirement {
    PluginRequirement(name: name, lowerBound: versions.lowerBound, upperBound: versions.upperBound)
  }

  /// The plugin `name` in `versions` or later (`"1.2.0"...`).
  public static func plugin(_ name: String, _ versions: PartialRangeFrom<SemanticVersion>)
    -> PluginRequirement
  {
    PluginRequirement(name: name, lowerBound: versions.lowerBound, upperBound: nil)
  }

  /// The accepted versions as written: `1.0.0..<2.0.0`, `1.2.0...`, or
  /// `any version`.
  public var range: String {
    switch (lowerBound, upperBound) {
    case (let lower?, let upper?): "\(lower)..<\(upper)"
    case (let lower?, nil): "\(lower)..."
    case (nil, let upper?): "..<\(upper)"
    case (nil, nil): "any version"
    }
  }

  /// `Networking 1.0.0..<2.0.0`, or `Networking` for any version.
  public var description: String {
    lowerBound == nil && upperBound == nil ? name : "\(name) \(range)"
  }

  /// Whether `version` lies in the range. A bound that is not a valid
  /// version accepts nothing.
  public func accepts(_ version: SemanticVersion) -> Bool {
    guard version.isValid, lowerBound?.isValid ?? true, upperBound?.isValid ?? true else { return false }
    if let lowerBound, version < lowerBound { return false }
    if let upperBound, !(version < upperBound) { return false }
    return true
  }

  /// The first bound that does not spell a version, as written.
  public var invalidBound: String? {
    [lowerBound, upperBound].compactMap { $0 }.first { !$0.isValid }?.description
  }
}
