#if canImport(Glibc)
  import Glibc
#endif

/// Settings whose values come from files rather than from the environment,
/// as secrets are best given (`docker secret`, systemd credentials):
///
/// - `PLUGBOARD_CONFIG_<PLUGIN>_<SETTING>_FILE=/run/secrets/token` gives
///   `PLUGBOARD_CONFIG_<PLUGIN>_<SETTING>` the file's content;
/// - with systemd's `LoadCredential=PLUGBOARD_CONFIG_NETWORKING_APITOKEN:/etc/…`,
///   the file `$CREDENTIALS_DIRECTORY/PLUGBOARD_CONFIG_NETWORKING_APITOKEN` does.
///
/// A variable set directly wins over both. The file is vetted as the
/// manifest is (``FileTrust``: owned by root or the user running plugboard,
/// writable by no one else, nor any folder above it), read up to
/// ``sizeLimit`` bytes, and one final line break is dropped. A file that
/// cannot be used is a problem of the setting it gives, never silently
/// ignored.
package struct SettingFiles: Sendable {
  /// The environment with each value read from a file added under its
  /// variable.
  package private(set) var environment: [String: String]
  /// Variable → where its value came from (`…_FILE`, or
  /// `CREDENTIALS_DIRECTORY`), for messages.
  package private(set) var sources: [String: String] = [:]
  /// Variable → why its file could not be used.
  package private(set) var problems: [String: String] = [:]
  /// Variable → the sentence naming its file, when others than its owner
  /// can read that file ("… gives the file F, which group and others can
  /// read (mode 0644, owner uid 0)"): a warning for a secret setting.
  package private(set) var exposures: [String: String] = [:]
  /// The credentials folder, and the names of its files that name a
  /// setting's variable: a name no plugin declares is warned of, as a
  /// variable's is.
  package private(set) var credentials: (folder: String, names: [String])?

  static let suffix = "_FILE"
  static let credentialsVariable = "CREDENTIALS_DIRECTORY"
  /// A setting's value is at most this long, as in the manifest.
  static let sizeLimit = ManifestDecoder.settingValueLimit
  /// Entries of the credentials folder looked at.
  static let credentialLimit = 1024

  package init(_ environment: [String: String]) {
    self.environment = environment
    let prefix = ConfigurationVariable.prefix
    for (key, path) in environment where key.hasPrefix(prefix) && key.hasSuffix(Self.suffix) {
      let variable = String(key.dropLast(Self.suffix.count))
      guard environment[variable] == nil else { continue }
      take(variable, from: path, source: key)
    }
    if let folder = Self.credentialsFolder(environment) {
      let names = Self.credentials(in: folder)
      credentials = (folder, names)
      for name in names where self.environment[name] == nil {
        take(name, from: folder + "/" + name, source: Self.credentialsVariable)
      }
    }
  }

  /// The variable a `…_FILE` variable gives, or the variable itself.
  package static func variable(givenBy name: String) -> String {
    name.hasPrefix(ConfigurationVariable.prefix) && name.hasSuffix(suffix)
      ? String(name.dropLast(suffix.count)) : name
  }

  private mutating func take(_ variable: String, from path: String, source: String) {
    switch Self.read(path) {
    case .success(let (text, status, readers)):
      environment[variable] = text
      sources[variable] = source
      if let readers {
        exposures[variable] =
          "\(source) gives the file \(Terminal.sanitize(path)), which \(readers) can read "
          + "(\(FileTrust.describe(status)))"
      }
    case .failure(let unusable):
      problems[variable] = "\(source) gives the file \(Terminal.sanitize(path)), which \(unusable.problem)"
    }
  }

  /// The variables the credentials folder `environment` names has files
  /// for, without reading them: what a command checks before it probes
  /// plugins for what they declare.
  package static func credentialVariables(_ environment: [String: String]) -> [String] {
    credentialsFolder(environment).map(credentials(in:)) ?? []
  }

  private static func credentialsFolder(_ environment: [String: String]) -> String? {
    environment[credentialsVariable].flatMap { $0.hasPrefix("/") ? $0 : nil }
  }

  /// The names of the credentials folder that name a setting's variable.
  private static func credentials(in folder: String) -> [String] {
    guard case .success(let names) = FilePath.names(in: folder, limit: credentialLimit) else { return [] }
    return names.filter { $0.hasPrefix(ConfigurationVariable.prefix) }.sorted()
  }

  /// Why a file cannot give a setting, continuing "the file … which ".
  struct Unusable: Error {
    let problem: String
  }

  /// The file's text, vetted and bounded, with its status and who besides
  /// its owner can read it (``FileTrust/readers(_:acl:at:)``); or what is
  /// wrong with it.
  static func read(_ path: String) -> Result<(text: String, status: stat, readers: String?), Unusable> {
    guard path.hasPrefix("/"), let canonical = FilePath.canonical(path) else {
      return .failure(Unusable(problem: path.hasPrefix("/") ? "does not exist" : "is not an absolute path"))
    }
    let descriptor = open(canonical, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard descriptor >= 0 else {
      return .failure(Unusable(problem: "cannot be opened: \(String(cString: strerror(errno)))"))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      return .failure(Unusable(problem: "is not a regular file"))
    }
    let user = geteuid()
    let stake = "choose a setting of a plugin"
    if let problem = FileTrust.fileProblem(status, at: canonical, user: user, stake: stake)
      ?? FileTrust.foldersProblem(
        from: FilePath.directory(of: canonical), user: user, thing: "it", stake: stake)
      ?? LinkChase.problem(path, user: user, thing: "the setting", stake: stake)
    {
      return .failure(Unusable(problem: problem))
    }
    var bytes = FileBytes.pread(descriptor, at: 0, count: sizeLimit + 1)
    guard bytes.count <= sizeLimit else {
      return .failure(Unusable(problem: "is longer than \(sizeLimit) bytes"))
    }
    if bytes.last == 0x0A { bytes.removeLast() }
    if bytes.last == 0x0D { bytes.removeLast() }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      return .failure(Unusable(problem: "is not UTF-8 text"))
    }
    let readers = FileTrust.readers(status, acl: AccessControlList.of(descriptor: descriptor), at: canonical)
    return .success((text, status, readers))
  }
}
