import PlugboardKit

/// One plugin's configuration in a deployment's profile: what the plugin
/// declared, the values resolved for it, and what is wrong with them.
public struct ResolvedConfiguration: Sendable {
  public let entry: PluginEntry
  public let configuration: PluginConfiguration
  /// Values given for settings the plugin does not declare.
  public let unknown: [ConfigurationResolver.UnknownSetting]

  /// Required settings without a value and values of the wrong type.
  public var problems: [ConfigurationError] { configuration.problems }

  /// Whether the plugin can be given this configuration.
  public var isValid: Bool { unknown.isEmpty && problems.isEmpty }
}
