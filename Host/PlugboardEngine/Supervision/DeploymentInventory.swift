import PlugboardDigest
import PlugboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// What a supervised `run` child brought up, as it tells its parent on the
/// progress pipe once its deployment is up (``ProgressEvent/inventory(_:)``):
/// each loaded plugin with its library's identity, each plugin's
/// configuration as a digest, and the profile. The parent compares two to
/// say what a reload changed (``ReloadReport``).
///
/// A plugin's identity is its manifest `sha256` pin when it has one, else
/// its library's size and modification time: a rebuilt library differs in
/// one of them. A configuration travels as a digest of its values only,
/// never the values, which may be secrets. Lines on the pipe can be
/// written by plugin code too: the inventory serves the report, never a
/// decision.
package struct DeploymentInventory: Equatable, Sendable {
  /// One thing the child brought up.
  package struct Item: Equatable, Sendable {
    package enum Kind: Character, Sendable {
      case plugin = "p"
      case configuration = "c"
      /// A shared library the plugins brought in (a neighbour library),
      /// by its path.
      case library = "l"
      /// Sent last: the inventory is complete once it came.
      case profile = "f"
    }
    package let kind: Kind
    /// The plugin's or the profile's name (empty: no profile).
    package let name: String
    /// The library's identity, or the configuration's digest.
    package let identity: String

    package init(kind: Kind, name: String, identity: String) {
      (self.kind, self.name, self.identity) = (kind, name, identity)
    }
  }

  private(set) var plugins: [String: String] = [:]
  private(set) var configurations: [String: String] = [:]
  private(set) var libraries: [String: String] = [:]
  private(set) var profile: String?
  /// Whether the child's whole inventory came (its profile, sent last).
  private(set) var isComplete = false

  /// At most this many items are kept: the pipe is plugin code's too.
  static let maximumItems = 10_000

  mutating func apply(_ item: Item) {
    guard !isComplete, plugins.count + configurations.count + libraries.count < Self.maximumItems else {
      return
    }
    switch item.kind {
    case .plugin: plugins[item.name] = item.identity
    case .configuration: configurations[item.name] = item.identity
    case .library: libraries[item.name] = item.identity
    case .profile:
      profile = item.name.isEmpty ? nil : item.name
      isComplete = true
    }
  }

  /// What changed from `old` to `new`, a phrase each: plugins added,
  /// removed and rebuilt, the profile, the plugins whose configuration
  /// changed. Empty when nothing did.
  static func changes(from old: DeploymentInventory, to new: DeploymentInventory) -> [String] {
    guard old.isComplete, new.isComplete else { return ["what changed is not known"] }
    let before = Set(old.plugins.keys)
    let after = Set(new.plugins.keys)
    let kept = before.intersection(after)
    var changes: [String] = []
    func say(_ label: String, _ names: some Sequence<String>) {
      let sorted = names.sorted()
      if !sorted.isEmpty {
        changes.append("\(label): " + sorted.map(Terminal.sanitize).joined(separator: ", "))
      }
    }
    say("plugins added", after.subtracting(before))
    say("plugins removed", before.subtracting(after))
    say("plugins rebuilt", kept.filter { old.plugins[$0] != new.plugins[$0] })
    if old.profile != new.profile {
      changes.append(
        "profile: \(Terminal.sanitize(old.profile ?? "none")) → \(Terminal.sanitize(new.profile ?? "none"))")
    }
    say("configuration changed", kept.filter { old.configurations[$0] != new.configurations[$0] })
    let changedLibraries = Set(old.libraries.keys).intersection(new.libraries.keys).filter {
      old.libraries[$0] != new.libraries[$0]
    }
    say(
      "neighbour libraries changed", Set(changedLibraries.map { String($0.split(separator: "/").last ?? "") })
    )
    return changes
  }

  /// The items that describe `deployment`, the profile last.
  static func items(of deployment: Deployment) -> [Item] {
    var items: [Item] = []
    for case .loaded(let plugin) in deployment.outcomes {
      items.append(Item(kind: .plugin, name: plugin.name, identity: identity(of: plugin)))
    }
    for resolved in deployment.configurations {
      items.append(
        Item(
          kind: .configuration, name: resolved.entry.name,
          identity: configurationIdentity(of: resolved.configuration.values)))
    }
    items += libraryItems(
      besides: Set(
        deployment.outcomes.compactMap { outcome in
          if case .loaded(let plugin) = outcome { plugin.file } else { nil }
        }))
    items.append(Item(kind: .profile, name: deployment.profile?.name ?? "", identity: ""))
    return items
  }

  /// The libraries opening the plugins brought in, but for the plugins'
  /// own files: plugboard's own are the same in every child, so what
  /// differs between two is what plugins brought in. Taken from the
  /// loader's list as the loader recorded it (``LoadedLibraries``), not
  /// from `/proc/self/maps`: every start of a supervised `run` sends this,
  /// before its application's first line, and reading and parsing every
  /// mapping of the process, then examining each of plugboard's own
  /// libraries, was most of what the child told its parent.
  private static func libraryItems(besides pluginFiles: Set<String>) -> [Item] {
    LoadedLibraries.broughtInByPlugins().sorted().compactMap { path in
      guard !pluginFiles.contains(path) else { return nil }
      var status = stat()
      // A sealed copy's name, gone once mapped: held to its pin.
      guard stat(path, &status) == 0 else { return nil }
      return Item(
        kind: .library, name: path,
        identity: "\(status.st_dev):\(status.st_ino):\(status.st_size):"
          + "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)")
    }
  }

  private static func identity(of plugin: LoadedPlugin) -> String {
    if let pin = plugin.entry.sha256 { return "sha256:" + pin }
    var status = stat()
    guard stat(plugin.file, &status) == 0 else { return "unreadable" }
    return "\(status.st_size):\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
  }

  /// What tells one plugin's configuration from another: a digest of its
  /// values, each with its kind, so that the string "30" and the number 30
  /// differ.
  static func configurationIdentity(of values: [String: ConfiguredValue]) -> String {
    digest(of: values.mapValues { spelling(of: $0.value) })
  }

  /// `value` with its kind. Spelt out rather than interpolated:
  /// interpolating an enum without a description goes through reflection,
  /// which cost more than the rest of the child's report on every start.
  private static func spelling(of value: SettingValue) -> String {
    switch value {
    case .string(let text): "string:" + text
    case .number(let text): "number:" + text
    case .bool(let flag): flag ? "bool:true" : "bool:false"
    case .text(let text): "text:" + text
    @unknown default: "other:" + value.shown(secret: false)
    }
  }

  /// A digest of `values`, in a fixed order, cut to 16 digits: enough to
  /// tell two configurations apart, too short to say anything of a value.
  static func digest(of values: [String: String]) -> String {
    var hasher = SHA256()
    for (name, value) in values.sorted(by: { $0.key < $1.key }) {
      hasher.update(Array("\(name.utf8.count):\(name)=\(value.utf8.count):\(value)\n".utf8))
    }
    return String(hasher.finalize().hex.prefix(16))
  }
}
