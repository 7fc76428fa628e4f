import PlugboardKit

/// One plugin's configuration in a deployment's profile: what the plugin
/// declared, the values resolved for it, and what is wrong with them.
package struct ResolvedConfiguration: Sendable {
  package let entry: PluginEntry
  package let configuration: PluginConfiguration
  /// Values given for settings the plugin does not declare.
  package let unknown: [ConfigurationResolver.UnknownSetting]

  /// Why a file meant to give one of its settings could not (see
  /// ``SettingFiles``): the setting, and the sentence naming it.
  package var fileProblems: [(setting: String, text: String)] = []

  /// Required settings without a value and values of the wrong type; a
  /// setting whose file could not be used is not also "missing".
  package var problems: [ConfigurationError] {
    let unread = Set(fileProblems.map(\.setting))
    return configuration.problems.filter { !unread.contains($0.setting) }
  }

  /// Whether the plugin can be given this configuration.
  package var isValid: Bool { unknown.isEmpty && problems.isEmpty && fileProblems.isEmpty }
}
