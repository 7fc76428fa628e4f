import Foundation
import Testing

@testable import PlugboardEngine
@testable import PlugboardSignatures

/// A deployment of copies of this build's plugins in a fresh folder, signed
/// at test time by keys `ssh-keygen` made there, with its allowed signers
/// file: what a publisher ships and an operator trusts. The plugins lie in
/// `plugins/` (a plugin of another package, with the neighbours it ships,
/// in a subfolder of its own), the keys, `allowed_signers` and the manifest
/// beside it.
struct SignedDeployment {
  let keys: SSHKeygen
  var folder: String { keys.folder.path }

  init() throws {
    keys = try SSHKeygen()
    try FileManager.default.createDirectory(atPath: folder + "/plugins", withIntermediateDirectories: false)
  }

  /// Copies `library` into `plugins/` (or `plugins/subfolder/`), with the
  /// libraries beside it that it needs and plugboard does not load itself
  /// (its `$ORIGIN` neighbours: `libAppContracts.so`); returns the copy's
  /// path.
  @discardableResult
  func add(_ library: String, subfolder: String? = nil) throws -> String {
    let target = folder + "/plugins" + (subfolder.map { "/" + $0 } ?? "")
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    let source = FilePath.directory(of: library)
    let needed = ELFFile(path: library).dynamicInfo()?.needed ?? []
    for name in needed where name != "libPlugboardKit.so" && !name.hasPrefix("libswift") {
      let neighbour = source + "/" + name
      guard FileManager.default.fileExists(atPath: neighbour),
        !FileManager.default.fileExists(atPath: target + "/" + name)
      else { continue }
      try FileManager.default.copyItem(atPath: neighbour, toPath: target + "/" + name)
    }
    let copy = target + "/" + (library.split(separator: "/").last.map(String.init) ?? library)
    try FileManager.default.copyItem(atPath: library, toPath: copy)
    return copy
  }

  /// Every library under `plugins/`, relative to the folder.
  func libraries() throws -> [String] {
    let found = FileManager.default.enumerator(atPath: folder + "/plugins")?.allObjects as? [String] ?? []
    return found.filter { $0.hasSuffix(".so") }.sorted().map { "plugins/" + $0 }
  }

  /// A new key `name`; returns its public key.
  @discardableResult
  func makeKey(_ name: String) throws -> SSHPublicKey {
    try keys.makeKey(name, comment: "\(name)'s release key")
  }

  /// Writes `allowed_signers`, one line per (principals, key, options).
  func allow(
    _ lines: [(principals: String, key: SSHPublicKey)], options: String = #"namespaces="plugboard-plugin""#
  )
    throws
  {
    let text = lines.map { "\($0.principals) \(options) \($0.key) release key" }.joined(separator: "\n")
    try keys.write("allowed_signers", Array((text + "\n").utf8))
  }

  /// Signs `library` (relative to the folder) with the key `key`.
  func sign(_ library: String, with key: String, namespace: String = SSHSignature.pluginNamespace) throws {
    _ = try keys.sign(library, with: key, namespace: namespace)
  }

  /// Signs every library under `plugins/` with `key`.
  func signAll(with key: String) throws {
    for library in try libraries() { try sign(library, with: key) }
  }

  /// Writes `plugins.json` with `top` members (`"trust": {…},`) and the
  /// plugin entries; returns its path.
  @discardableResult
  func manifest(_ top: String, _ entries: [String]) throws -> String {
    let text =
      #"{ "formatVersion": 1, \#(top) "plugins": [\#n    "# + entries.joined(separator: ",\n    ") + "\n] }\n"
    try keys.write("plugins.json", Array(text.utf8))
    return folder + "/plugins.json"
  }

  /// The trust block that requires signatures by `allowed_signers`.
  static let requiring = #""trust": { "allowedSigners": "allowed_signers", "requireSignatures": true },"#

  /// `plugboard ARGUMENTS --manifest plugins.json`, with `environment`
  /// added to the test's.
  func plugboard(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
    try Subprocess.plugboard(arguments + ["--manifest", folder + "/plugins.json"], environment: environment)
  }

  /// A `plugins` entry.
  static func entry(_ name: String, _ path: String, _ more: String = "") -> String {
    #"{ "name": "\#(name)", "path": "\#(path)"\#(more) }"#
  }
}
