import PlugboardKit

/// One plugin's configuration in a deployment's profile: what the plugin
/// declared, the values resolved for it, and what is wrong with them.
package struct ResolvedConfiguration: Sendable {
  package let entry: PluginEntry
  package let configuration: PluginConfiguration
  /// Values given for settings the plugin does not declare.
  package let unknown: [ConfigurationResolver.UnknownSetting]

  /// Required settings without a value and values of the wrong type.
  package var problems: [ConfigurationError] { configuration.problems }

  /// Whether the plugin can be given this configuration.
  package var isValid: Bool { unknown.isEmpty && problems.isEmpty }
}
