/// The steps of bringing a deployment up, in order. Every diagnostic names
/// the step that failed, so a reader knows how far the plugin got.
public enum LoadStage: String, Sendable, CaseIterable, Codable {
  case readManifest = "read manifest"
  case locate
  /// Checks made before anything of the file runs: where it lies, who may
  /// write it, whether its ELF structure is whole, its pin.
  case vet
  case open
  case findEntry = "find entry"
  case checkVersions = "check versions"
  /// Calling the plugin's `make_bundle`: the plugin's code makes its
  /// assemblies (or, for a configured plugin, is ready to).
  case makeAssemblies = "make assemblies"
  /// The plugins each plugin requires are loaded, in versions it accepts,
  /// and none requires itself through others (see ``AssemblyOrder``).
  case requirements = "check requirements"
  /// Resolving the plugin's configuration in the active profile and
  /// giving it to the plugin, which makes its assemblies from it.
  case configure
  case assemble
  /// The assemblies' `loaded(resolver:)`, after every plugin registered.
  case loadedHook = "loaded hook"
  /// Applying the active profile's per-service choices to the assembled
  /// container.
  case applyProfile = "apply profile"
  /// Validating the whole dependency graph (`run`, `check`).
  case validate
  /// Resolving the `Application`, whose factories are plugin code.
  case resolveApplication = "resolve Application"
  /// `check --resolve`: resolving each registration in a scope of its
  /// own, whose factories are plugin code.
  case resolveRegistrations = "resolve registrations"
  /// The application is running (`plugboard run`).
  case running = "application running"
  /// Resolving and running the `Application` (`plugboard run`).
  case run

  /// Whether the stage resolves registrations, running the factories of
  /// whichever plugins that takes: a crash there is reported with the
  /// registration being made rather than set aside as one plugin's.
  var resolvesRegistrations: Bool { self == .resolveApplication || self == .resolveRegistrations }
}
