import Foundation
import PlugboardKit

/// Resolves a plugin's configuration in a profile from its declarations:
/// for each setting the environment variable (``ConfigurationVariable``)
/// wins over the profile's `config`, which wins over the manifest entry's
/// `config`, which wins over the declared default.
package struct ConfigurationResolver: Sendable {
  /// The variables consulted, usually the process's environment.
  package let environment: [String: String]
  /// A probe's resolution: what is missing or of the wrong type is given
  /// a placeholder (`""`, `0`, `false`), so that a plugin loaded only to
  /// learn what it registers can assemble whatever its configuration.
  package let lenient: Bool

  /// The settings given through files (`…_FILE`, the credentials folder),
  /// already in ``environment``; see ``SettingFiles``.
  package let files: SettingFiles

  package init(environment: [String: String] = ProcessInfo.processInfo.environment, lenient: Bool = false) {
    files = SettingFiles(environment)
    self.environment = files.environment
    self.lenient = lenient
  }

  /// A value given for a name the plugin does not declare.
  package struct UnknownSetting: Sendable, Equatable {
    package let plugin: String
    package let name: String
    package let source: ConfigurationSource
    /// The declared name it most resembles.
    package let suggestion: String?
  }

  /// `entry`'s configuration in `profile` against `declarations`, and the
  /// values given for settings it does not declare (in manifest order:
  /// the entry's, then the profile's).
  package func resolve(
    _ entry: PluginEntry, profile: ProfileDeclaration?, declarations: [SettingDeclaration]
  ) -> (configuration: PluginConfiguration, unknown: [UnknownSetting]) {
    let entryPath = ManifestPath.root.key("plugins").index(entry.index).key("config")
    let profileValues = profile?.config[entry.name] ?? [:]
    let profilePath = profile.map { $0.path.key("config").key(entry.name) }
    var values: [String: ConfiguredValue] = [:]
    for declaration in declarations {
      let variable = ConfigurationVariable.name(plugin: entry.name, setting: declaration.name)
      if let text = environment[variable] {
        let source = files.sources[variable] ?? variable
        values[declaration.name] = ConfiguredValue(.text(text), from: .environment(variable: source))
      } else if let value = profileValues[declaration.name], let profile, let profilePath {
        values[declaration.name] = ConfiguredValue(
          value, from: .profile(profile.name, keyPath: profilePath.key(declaration.name).description))
      } else if let value = entry.config[declaration.name] {
        values[declaration.name] = ConfiguredValue(
          value, from: .manifest(keyPath: entryPath.key(declaration.name).description))
      }
      if lenient,
        !(values[declaration.name].map { declaration.type.accepts($0.value) } ?? !declaration.required)
      {
        values[declaration.name] = ConfiguredValue(Self.placeholder(declaration.type))
      }
    }
    let names = declarations.map(\.name)
    let declared = Set(names)
    func unknown(_ config: [String: SettingValue], source: (String) -> ConfigurationSource)
      -> [UnknownSetting]
    {
      config.keys.sorted().filter { !declared.contains($0) }.map { name in
        UnknownSetting(
          plugin: entry.name, name: name, source: source(name),
          suggestion: KeySuggestion.closest(to: name, among: names))
      }
    }
    var unknownSettings = unknown(entry.config) { .manifest(keyPath: entryPath.key($0).description) }
    if let profile, let profilePath {
      unknownSettings += unknown(profileValues) {
        .profile(profile.name, keyPath: profilePath.key($0).description)
      }
    }
    let configuration = PluginConfiguration(
      plugin: entry.name, profile: profile?.name, declarations: declarations, values: values)
    return (configuration, unknownSettings)
  }

  private static func placeholder(_ type: SettingType) -> SettingValue {
    switch type {
    case .string: .string("")
    case .int, .double, .duration: .number("0")
    case .bool: .bool(false)
    // A type a later PlugboardKit adds is read from text, as a string is.
    @unknown default: .string("")
    }
  }

  /// Why files meant to give settings of `entry` (declared by
  /// `declarations`) could not, each naming the setting.
  package func fileProblems(of entry: PluginEntry, declarations: [SettingDeclaration])
    -> [(setting: String, text: String)]
  {
    declarations.compactMap { declaration in
      let variable = ConfigurationVariable.name(plugin: entry.name, setting: declaration.name)
      return files.problems[variable].map { (declaration.name, "setting '\(declaration.name)': \($0)") }
    }
  }
}
