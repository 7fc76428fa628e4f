extension PluginExport {
  /// The descriptor of a plugin that reads configuration: `settings` are
  /// what it reads (checked by `plugboard check` in every profile and
  /// listed, secrets redacted, by `list` and `explain`), and `assemblies`
  /// receives this plugin's configuration in the active profile:
  ///
  /// ```swift
  /// @_cdecl("plugboard_entry_v1")
  /// public func plugboardEntry() -> UnsafeRawPointer {
  ///   PluginExport.descriptor(
  ///     name: "Networking", version: "1.0.0",
  ///     settings: [NetworkingSettings.baseURL, NetworkingSettings.timeout]
  ///   ) { configuration in
  ///     [NetworkingAssembly(baseURL: try configuration[NetworkingSettings.baseURL])]
  ///   }
  /// }
  /// ```
  ///
  /// The host calls `assemblies` once, after it resolved the configuration
  /// and before any assembly runs; an error it throws (a
  /// ``ConfigurationError`` from a read) fails the plugin at the
  /// `configure` stage with that error's text.
  @_alwaysEmitIntoClient
  public static func descriptor(
    name: String, version: String, requires: [PluginRequirement] = [], settings: [any DeclaredSetting],
    assemblies: @escaping (PluginConfiguration) throws -> [any Assembly]
  ) -> UnsafeRawPointer {
    makeConfiguredDescriptor(
      name: name, version: version, kitVersion: PlugboardBuild.kitVersion,
      swiftVersion: PlugboardBuild.compilerVersion, requires: requires, settings: settings,
      assemblies: assemblies)
  }

  /// The non-inlined half of ``descriptor(name:version:requires:settings:assemblies:)``;
  /// call that instead, so the versions recorded are the plugin's own.
  public static func makeConfiguredDescriptor(
    name: String, version: String, kitVersion: String, swiftVersion: String,
    requires: [PluginRequirement] = [], settings: [any DeclaredSetting],
    assemblies: @escaping (PluginConfiguration) throws -> [any Assembly]
  ) -> UnsafeRawPointer {
    let declarations = settings.map(\.declaration)
    return makeDescriptor(
      name: name, version: version, kitVersion: kitVersion, swiftVersion: swiftVersion,
      bundle: { PluginBundle(settings: declarations, requirements: requires, assemblies: assemblies) })
  }
}
