import PlugboardKit

/// The ``Logger`` plugboard registers in every deployment, before any
/// plugin assembles: a ``StandardErrorLogger`` at the level the operator
/// chose (see ``LogLevelChoice``). Registrations made later win, so a
/// plugin that registers `(any Logger).self` replaces it; that is the
/// point of registering it first, and `check` does not report it as a
/// duplicate registration (``isDefault(_:)``).
enum DefaultLogger {
  /// Where the default is registered, which `list` and `explain` show.
  static let registrationFile = #fileID

  /// Registers the default logger in the container `attribution` holds,
  /// attributed to no plugin, at the level `settings` choose for `manifest`.
  static func register(into attribution: AssemblyAttribution, settings: HostSettings, manifest: Manifest) {
    let level = settings.logLevel(for: manifest)
    attribution.assembling(plugin: nil) {
      attribution.container.register((any Logger).self) { _ -> any Logger in
        // To plugboard's own copy of standard error, which plugin code that
        // points descriptor 2 elsewhere does not silence.
        JournalStream.isStandardError
          ? JournalLogger(minimumLevel: level)
          : StandardErrorLogger(minimumLevel: level, descriptor: StandardError.descriptor)
      }
      .inObjectScope(.container).dependsOn()
    }
  }

  /// Whether `site` is the default logger's registration.
  static func isDefault(_ site: RegistrationSite) -> Bool {
    site.plugin == nil && site.fileID == registrationFile
  }
}
