/// What a plugin hands the host once its versions have been checked: its
/// assemblies. The host checks the object it receives with `as?
/// PluginBundle`; if that fails, the plugin linked its own copy of
/// PlugboardKit and its types cannot match the host's.
public final class PluginBundle {
  /// Empty for a configured plugin until ``configure(with:)`` made them.
  public private(set) var assemblies: [any Assembly]
  /// The plugins this one requires (``PluginExport/descriptor(name:version:requires:assemblies:)``).
  public let requirements: [PluginRequirement]
  /// The settings the plugin reads (``Setting``); empty for a plugin that
  /// reads none.
  public let settings: [SettingDeclaration]
  private let makeConfigured: ((PluginConfiguration) throws -> [any Assembly])?

  public init(assemblies: [any Assembly], requirements: [PluginRequirement] = []) {
    self.assemblies = assemblies
    self.requirements = requirements
    self.settings = []
    self.makeConfigured = nil
  }

  /// A configured plugin's bundle: its assemblies are made by
  /// ``configure(with:)``, once the host resolved its configuration.
  public init(
    settings: [SettingDeclaration], requirements: [PluginRequirement] = [],
    assemblies: @escaping (PluginConfiguration) throws -> [any Assembly]
  ) {
    self.assemblies = []
    self.requirements = requirements
    self.settings = settings
    self.makeConfigured = assemblies
  }

  /// Makes a configured plugin's assemblies from `configuration`; nothing
  /// for a plugin that declared no settings (its assemblies exist already).
  ///
  /// - Throws: what the plugin's closure throws, typically a
  ///   ``ConfigurationError`` from reading a setting.
  public func configure(with configuration: PluginConfiguration) throws {
    guard let makeConfigured else { return }
    assemblies = try makeConfigured(configuration)
  }
}
