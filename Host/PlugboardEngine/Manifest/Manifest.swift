import PlugboardKit

/// A deployment description, `plugins.json`: which plugins to load, in
/// which order. See `Docs/manifest.md` and `plugins.schema.json`.
package struct Manifest: Equatable, Sendable {
  /// The only format this host reads. A later format (profiles, integrity
  /// pins) raises it; an older host then refuses the file clearly instead of
  /// misreading it.
  package static let formatVersion = 1

  /// The manifest file's absolute path; its canonical path (links and
  /// `..` resolved by the file system) when ``ManifestReader`` read it.
  package let path: String
  package let plugins: [PluginEntry]
  /// The profiles the deployment declares, in the order written; empty
  /// when it declares none (then no profile is ever active).
  package let profiles: [ProfileDeclaration]
  /// The profile used when neither `--profile` nor `PLUGBOARD_PROFILE`
  /// chooses one; required when ``profiles`` is not empty.
  package let activeProfile: String?
  /// `"requirePins": true`: every plugin that loads must carry a
  /// `sha256` pin; an unpinned one is refused. False when absent.
  package let requirePins: Bool
  /// `"pluginRoots"`: more folders plugins may live in, as written
  /// (absolute, or relative to the manifest's folder). The manifest's own
  /// folder is always a root and is not listed here.
  package let pluginRoots: [String]
  /// `"stageTimeout"`: how long one load stage of one plugin may take
  /// before it counts as a hang; nil when the manifest leaves it to the
  /// default.
  package let stageTimeout: Duration?
  /// `"logLevel"`: the level of plugboard's default logger
  /// (`PLUGBOARD_LOG_LEVEL` and `--log-level` override it); nil when the
  /// manifest leaves it to the default, `notice`.
  package internal(set) var logLevel: LogLevel? = nil
  /// `"pluginFolders"`: drop-in folders, as written (absolute, or relative
  /// to the manifest's folder), whose `lib*.so` files are discovered and
  /// loaded after the listed plugins (see ``PluginDiscovery``).
  package var pluginFolders: [String] = []
  /// Each drop-in folder's own `trust` (written `{"path": …, "trust":
  /// {…}}`), by position in ``pluginFolders``; nil for a folder without one.
  package var pluginFolderTrust: [SignatureTrust?] = []
  /// `"trust"`: whose signatures vouch for every plugin that has no trust
  /// block of its own or of its folder; nil when absent (see
  /// ``SignatureTrust``).
  package var trust: SignatureTrust? = nil
  /// The `plugins` entries with a `name` and no `path`: settings
  /// (`enabled`, `profiles`, `optional`, `sha256`) for the discovered
  /// plugin of that name. Their ``PluginEntry/path`` is empty.
  package var discoveredSettings: [PluginEntry] = []
  /// `"hookTimeout"`: how long one start or stop hook of a service may
  /// take (see `Docs/lifecycle.md`); nil for the default, 30 s.
  package var hookTimeout: Duration? = nil
  /// `"exitTimeout"`: how long the exit-time code (library destructors,
  /// `atexit` handlers: plugin code) may take after the report was written
  /// or the application ended; nil for the default, the stage timeout.
  package var exitTimeout: Duration? = nil
  /// `"libraryPins"`: the SHA-256 of each library pinned plugins map
  /// besides themselves, in written order (see ``LibraryPin``); empty when
  /// absent.
  package var libraryPins: [LibraryPin] = []
  /// `"contributions"`: per extension point, the contributions kept or
  /// left out in every profile (a profile's own rule for an extension
  /// point replaces this one); see ``ContributionRule``.
  package var contributions: [ContributionRule] = []
  /// `"decorators"`: per decorated service, the decorators kept or left
  /// out in every profile, in the same shape.
  package var decorators: [ContributionRule] = []

  package init(
    path: String, plugins: [PluginEntry], profiles: [ProfileDeclaration] = [], activeProfile: String? = nil,
    requirePins: Bool = false, pluginRoots: [String] = [], stageTimeout: Duration? = nil,
    hookTimeout: Duration? = nil
  ) {
    self.path = path
    self.plugins = plugins
    self.profiles = profiles
    self.activeProfile = activeProfile
    self.requirePins = requirePins
    self.pluginRoots = pluginRoots
    self.stageTimeout = stageTimeout
    self.hookTimeout = hookTimeout
  }

  /// The folder relative plugin paths are resolved against, and the
  /// plugin root that is always allowed: the real manifest's folder, not a
  /// link's.
  package var directory: String {
    FilePath.directory(of: path)
  }
}

extension Manifest {
  /// Where `entry`'s library is, before following links: its path made
  /// absolute against the manifest's folder.
  package func absolutePath(of entry: PluginEntry) -> String {
    FilePath.absolute(entry.path, relativeTo: directory)
  }

  /// The declared profile called `name`.
  package func profile(named name: String) -> ProfileDeclaration? {
    profiles.first { $0.name == name }
  }
}
