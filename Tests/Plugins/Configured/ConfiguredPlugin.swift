import PlugboardKit

/// Test-only: a plugin with a required setting, a required secret and a
/// defaulted integer, for the configuration checks and the redaction
/// tests. It registers what it read, so a test can see the values.
enum ConfiguredSettings {
  static let region = Setting<String>("region", summary: "where the service runs")
  static let password = Setting<String>("password", secret: true, summary: "the database password")
  static let retries = Setting<Int>("retries", default: 3)
}

struct ConfiguredAssembly: Assembly {
  let region: String
  let retries: Int

  func assemble(container: Container) {
    container.register(String.self, name: "region") { _ in region }.dependsOn()
    container.register(Int.self, name: "retries") { _ in retries }.dependsOn()
  }
}

@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(
    name: "Configured", version: "1.0.0",
    settings: [ConfiguredSettings.region, ConfiguredSettings.password, ConfiguredSettings.retries]
  ) { configuration in
    _ = try configuration[ConfiguredSettings.password]
    return [
      ConfiguredAssembly(
        region: try configuration[ConfiguredSettings.region],
        retries: try configuration[ConfiguredSettings.retries])
    ]
  }
}
