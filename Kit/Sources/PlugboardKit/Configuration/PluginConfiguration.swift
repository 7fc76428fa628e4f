/// One plugin's configuration in the active profile, as the host resolved
/// it (the manifest entry's `config`, the profile's override, environment
/// variables), and the settings the plugin declared. An assembly reads it
/// with the plugin's ``Setting`` values:
///
/// ```swift
/// let timeout = try configuration[NetworkingSettings.timeout]
/// ```
public struct PluginConfiguration: Sendable {
  public let plugin: String
  /// The active profile, when the deployment declares profiles.
  public let profile: String?
  /// What the plugin declared, in its order.
  public let declarations: [SettingDeclaration]
  /// The values configuration gives, by setting name; a setting not here
  /// reads as its default.
  public let values: [String: ConfiguredValue]

  /// A configuration of `settings` with `values`; how the host makes one,
  /// and how a test gives an assembly the configuration it needs.
  public init(
    plugin: String, profile: String? = nil, settings: [any DeclaredSetting],
    values: [String: ConfiguredValue] = [:]
  ) {
    self.init(plugin: plugin, profile: profile, declarations: settings.map(\.declaration), values: values)
  }

  public init(
    plugin: String, profile: String? = nil, declarations: [SettingDeclaration],
    values: [String: ConfiguredValue] = [:]
  ) {
    self.plugin = plugin
    self.profile = profile
    self.declarations = declarations
    self.values = values
  }

  /// The setting's value: the configured one read as `Value`, else its
  /// default, else `nil` for an optional setting.
  ///
  /// - Throws: ``ConfigurationError``: `missing` for a required setting
  ///   with no value, `wrongType` for a value that does not read as
  ///   `Value`, `notDeclared` for a setting the plugin did not declare.
  public subscript<Value>(setting: Setting<Value>) -> Value {
    get throws(ConfigurationError) {
      guard let declaration = declarations.first(where: { $0.name == setting.name }) else {
        throw error(setting.name, source: nil, .notDeclared)
      }
      if let configured = values[setting.name] {
        guard let value = Value(settingValue: configured.value) else {
          throw ConfigurationError.wrongType(
            configured, for: declaration.merging(setting), plugin: plugin, profile: profile)
        }
        return value
      }
      if let value = setting.defaultValue ?? Value.valueWhenAbsent { return value }
      throw error(setting.name, source: nil, .missing)
    }
  }

  /// Every declared setting that cannot be read: a required one with no
  /// value, a value that is not of the declared type. Values for names
  /// nothing declares are the host's to report (it knows the keys' places).
  public var problems: [ConfigurationError] {
    declarations.compactMap { declaration in
      if let configured = values[declaration.name] {
        guard declaration.type.accepts(configured.value) else {
          return .wrongType(configured, for: declaration, plugin: plugin, profile: profile)
        }
        return nil
      }
      return declaration.required && declaration.defaultValue == nil
        ? error(declaration.name, source: nil, .missing) : nil
    }
  }

  private func error(_ setting: String, source: ConfigurationSource?, _ reason: ConfigurationError.Reason)
    -> ConfigurationError
  {
    ConfigurationError(plugin: plugin, profile: profile, setting: setting, source: source, reason: reason)
  }
}

extension SettingDeclaration {
  /// This declaration, secret when either it or the setting read says so:
  /// a read through another `Setting` of the same name must not leak.
  fileprivate func merging<Value>(_ setting: Setting<Value>) -> SettingDeclaration {
    SettingDeclaration(
      name: name, type: Value.settingType, defaultValue: defaultValue, required: required,
      secret: secret || setting.secret, summary: summary)
  }
}
