/// What a plugin hands the host once its versions have been checked: its
/// assemblies. The host checks the object it receives with `as?
/// PluginBundle`; if that fails, the plugin linked its own copy of
/// PlugboardKit and its types cannot match the host's.
public final class PluginBundle {
  public let assemblies: [any Assembly]
  /// The plugins this one requires (``PluginExport/descriptor(name:version:requires:assemblies:)``).
  public let requirements: [PluginRequirement]

  public init(assemblies: [any Assembly], requirements: [PluginRequirement] = []) {
    self.assemblies = assemblies
    self.requirements = requirements
  }
}
