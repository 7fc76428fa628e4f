/// A setting that could not be read, as a value: which plugin, which
/// setting, where its value came from, and why. It never holds a secret's
/// value (the text it would show is made, redacted, when it is created).
///
/// Rendered, for example:
/// `plugin 'Networking': setting 'timeout' (profiles.mock.config.Networking.timeout): expected a duration in seconds (a number ≥ 0), found a string "soon"`.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
  public enum Reason: Sendable, Equatable {
    /// Required (no default, not optional), and configuration gives none.
    case missing
    /// The value given does not read as the type; `found` is what it is,
    /// with its value unless the setting is secret.
    case wrongType(expected: SettingType, found: String)
    /// The plugin reads a setting it did not declare (a programming error
    /// in the plugin: declare it in `PluginExport.descriptor(…, settings:)`).
    case notDeclared
  }

  public let plugin: String
  /// The active profile, when there is one.
  public let profile: String?
  public let setting: String
  /// Where the offending value came from; nil when there is none.
  public let source: ConfigurationSource?
  public let reason: Reason

  public init(
    plugin: String, profile: String?, setting: String, source: ConfigurationSource?, reason: Reason
  ) {
    self.plugin = plugin
    self.profile = profile
    self.setting = setting
    self.source = source
    self.reason = reason
  }

  /// The error for `value` not reading as `declaration`'s type.
  public static func wrongType(
    _ value: ConfiguredValue, for declaration: SettingDeclaration, plugin: String, profile: String?
  ) -> ConfigurationError {
    let shown = declaration.secret ? "" : " \(value.value.shown(secret: false))"
    return ConfigurationError(
      plugin: plugin, profile: profile, setting: declaration.name, source: value.source,
      reason: .wrongType(expected: declaration.type, found: value.value.kindPhrase + shown))
  }

  public var description: String { "plugin '\(plugin)': \(detail)" }

  /// The text without the plugin: `setting 'timeout' (…): expected …`.
  public var detail: String {
    let inProfile = profile.map { " in profile '\($0)'" } ?? ""
    let from = source.map { " (\($0))" } ?? ""
    switch reason {
    case .missing:
      return "setting '\(setting)' is required and has no value\(inProfile)"
    case .wrongType(let expected, let found):
      return "setting '\(setting)'\(from): expected \(expected.phrase), found \(found)"
    case .notDeclared:
      return "setting '\(setting)' is read but not declared; add it to the settings "
        + "passed to PluginExport.descriptor(name:version:settings:assemblies:)"
    }
  }
}
