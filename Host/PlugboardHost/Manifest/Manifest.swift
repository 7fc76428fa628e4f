/// A deployment description, `plugins.json`: which plugins to load, in
/// which order. See `Docs/plugins.md` and `plugins.schema.json`.
public struct Manifest: Equatable, Sendable {
  /// The only format this host reads. A later format (profiles, integrity
  /// pins) raises it; an older host then refuses the file clearly instead of
  /// misreading it.
  public static let formatVersion = 1

  /// The manifest file's absolute path.
  public let path: String
  public let plugins: [PluginEntry]
  /// The profiles the deployment declares, in the order written; empty
  /// when it declares none (then no profile is ever active).
  public let profiles: [ProfileDeclaration]
  /// The profile used when neither `--profile` nor `PLUGBOARD_PROFILE`
  /// chooses one; required when ``profiles`` is not empty.
  public let activeProfile: String?

  public init(
    path: String, plugins: [PluginEntry], profiles: [ProfileDeclaration] = [], activeProfile: String? = nil
  ) {
    self.path = path
    self.plugins = plugins
    self.profiles = profiles
    self.activeProfile = activeProfile
  }

  /// The folder relative plugin paths are resolved against.
  public var directory: String {
    FilePath.directory(of: path)
  }
}

extension Manifest {
  /// Where `entry`'s library is, before following links: its path made
  /// absolute against the manifest's folder.
  public func absolutePath(of entry: PluginEntry) -> String {
    FilePath.absolute(entry.path, relativeTo: directory)
  }

  /// The declared profile called `name`.
  public func profile(named name: String) -> ProfileDeclaration? {
    profiles.first { $0.name == name }
  }
}
