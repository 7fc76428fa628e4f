import Foundation

/// Every way a deployment can be hostile, each laid out afresh as a small
/// deployment for `plugboard` to face: the fault corpus.
///
/// Each deployment lives in its own ``TemporaryDirectory`` (the `root`):
/// the manifest is `root/deployment/plugins.json` and the libraries are
/// copied beside it, so every path stays inside the manifest's folder —
/// except in the escape cases, whose library sits in `root/x` or
/// `root/outside`, a sibling of the manifest's folder.
enum FaultCase: String, CaseIterable, Sendable, CustomStringConvertible {
  // The file the manifest names.
  case missingFile, folder, notELF, emptyFile, truncatedELF
  // The library's code, by stage.
  case noEntry, nullEntry, entryCrash, entryAbort, entryHang
  case constructorCrash, constructorHang, constructorExit
  case trappingAssembly, trappingFactory
  case unresolvedSymbol, otherABI, ownKitCopy
  // Where the file is and who may write it.
  case worldWritableFile, worldWritableFolder, parentEscape, symlinkEscape, symlinkLoop, hashMismatch
  // The plugin list.
  case duplicateName, libraryListedTwice, threeCrashes
  // The manifest itself (its one plugin, Healthy, is sound).
  case truncatedJSON, wrongTypes, unknownKeys, hugeManifest, deepNesting

  var description: String { rawValue }

  /// The cases in which a plugin never returns: today `plugboard` waits
  /// for it forever.
  var hangs: Bool { self == .entryHang || self == .constructorHang }
}

/// One fault's deployment. The folder is removed when this is released.
struct FaultDeployment {
  /// A fresh folder holding the deployment (see ``FaultCase``).
  let root: TemporaryDirectory
  /// The manifest, `root/deployment/plugins.json`.
  let manifest: String
  /// The plugins the manifest names, in order: each name, and the
  /// canonical path of the file its `path` leads to (where it would be, for
  /// a file that is missing or a symbolic link that leads nowhere).
  let plugins: [(name: String, file: String)]

  /// The plugin at fault, by name: the first whose entry is wrong (for
  /// ``FaultCase/libraryListedTwice``, the second entry; for a manifest
  /// case, the sound plugin it names).
  let plugin: String
  /// The canonical path of ``plugin``'s file.
  let file: String

  /// The manifest's folder, `root/deployment`.
  var folder: String { root.path + "/deployment" }
}

enum FaultCorpus {
  typealias Failure = FixtureFailure

  /// Lays out `fault`'s deployment in a fresh folder.
  static func deployment(_ fault: FaultCase) throws -> FaultDeployment {
    let layout = try Layout()
    switch fault {
    case .missingFile: return try layout.plugin("Gone", at: "libGone.so")
    case .folder:
      try FileManager.default.createDirectory(
        atPath: layout.folder + "/libFolder.so", withIntermediateDirectories: false)
      return try layout.plugin("Folder", at: "libFolder.so")
    case .notELF:
      try "this is not a shared library\n".write(
        toFile: layout.folder + "/libText.so", atomically: true, encoding: .utf8)
      return try layout.plugin("Text", at: "libText.so")
    case .emptyFile:
      _ = FileManager.default.createFile(atPath: layout.folder + "/libEmpty.so", contents: Data())
      return try layout.plugin("Empty", at: "libEmpty.so")
    case .truncatedELF:
      let whole = try Data(contentsOf: URL(fileURLWithPath: BuildProducts.library("Healthy")))
      _ = FileManager.default.createFile(
        atPath: layout.folder + "/libTruncated.so", contents: whole.prefix(700))
      return try layout.plugin("Truncated", at: "libTruncated.so")
    case .noEntry: return try layout.fixture("NoEntry")
    case .nullEntry: return try layout.fixture("NullEntry")
    case .entryCrash: return try layout.fixture("EntryCrash")
    case .entryAbort: return try layout.fixture("EntryAbort")
    case .entryHang: return try layout.fixture("EntryHang")
    case .constructorCrash: return try layout.fixture("Crash")
    case .constructorHang: return try layout.fixture("Hang")
    case .constructorExit: return try layout.fixture("Exit")
    case .trappingAssembly: return try layout.built("TrappingAssembly")
    case .trappingFactory: return try layout.built("TrappingFactory")
    case .unresolvedSymbol: return try layout.fixture("Unresolved")
    case .otherABI: return try layout.fixture("ABI2")
    case .ownKitCopy:
      try layout.copy(try OwnKitBuild.library.get(), to: "libOwnKit.so")
      return try layout.plugin("OwnKit", at: "libOwnKit.so")
    case .worldWritableFile:
      try layout.copy(BuildProducts.library("Healthy"), to: "libHealthy.so", mode: 0o777)
      return try layout.plugin("Healthy", at: "libHealthy.so")
    case .worldWritableFolder:
      try layout.makeFolder(layout.folder + "/shared", mode: 0o777)
      try layout.copy(BuildProducts.library("Healthy"), to: "shared/libHealthy.so")
      return try layout.plugin("Healthy", at: "shared/libHealthy.so")
    case .parentEscape:
      try layout.makeFolder(layout.root.path + "/x")
      try layout.copy(BuildProducts.library("Healthy"), to: "../x/lib.so")
      return try layout.plugin("Healthy", at: "../x/lib.so")
    case .symlinkEscape:
      try layout.makeFolder(layout.root.path + "/outside")
      try layout.copy(BuildProducts.library("Healthy"), to: "../outside/libHealthy.so")
      try FileManager.default.createSymbolicLink(
        atPath: layout.folder + "/libHealthy.so",
        withDestinationPath: layout.root.path + "/outside/libHealthy.so")
      return try layout.plugin("Healthy", at: "libHealthy.so")
    case .symlinkLoop:
      try FileManager.default.createSymbolicLink(
        atPath: layout.folder + "/libLoop.so", withDestinationPath: "libLoopBack.so")
      try FileManager.default.createSymbolicLink(
        atPath: layout.folder + "/libLoopBack.so", withDestinationPath: "libLoop.so")
      return try layout.plugin("Loop", at: "libLoop.so")
    case .hashMismatch:
      try layout.copy(BuildProducts.library("Healthy"), to: "libHealthy.so")
      let text =
        #"{ "formatVersion": 1, "plugins": [ { "name": "Healthy", "path": "libHealthy.so", "sha256": ""#
        + String(repeating: "0", count: 64) + #"" } ] }"#
      return try layout.plugin("Healthy", at: "libHealthy.so", manifest: text)
    case .duplicateName:
      try layout.copy(BuildProducts.library("Healthy"), to: "libHealthy.so")
      try layout.copy(BuildProducts.library("Healthy"), to: "libHealthyCopy.so")
      return try layout.plugins([("Healthy", "libHealthy.so"), ("Healthy", "libHealthyCopy.so")], atFault: 1)
    case .libraryListedTwice:
      try layout.copy(BuildProducts.library("Healthy"), to: "libHealthy.so")
      return try layout.plugins(
        [("Healthy", "libHealthy.so"), ("HealthyAgain", "libHealthy.so")], atFault: 1)
    case .threeCrashes:
      try layout.copy(try CFixtures.directory.get() + "/libCrash.so", to: "libCrash.so")
      try layout.copy(try CFixtures.directory.get() + "/libEntryCrash.so", to: "libEntryCrash.so")
      try layout.copy(BuildProducts.library("TrappingAssembly"), to: "libTrappingAssembly.so")
      return try layout.plugins([
        ("Crash", "libCrash.so"), ("EntryCrash", "libEntryCrash.so"),
        ("TrappingAssembly", "libTrappingAssembly.so"),
      ])
    case .truncatedJSON, .wrongTypes, .unknownKeys, .hugeManifest, .deepNesting:
      try layout.copy(BuildProducts.library("Healthy"), to: "libHealthy.so")
      return try layout.plugin("Healthy", at: "libHealthy.so", manifest: malformedManifest(fault))
    }
  }

  /// The text of a malformed manifest naming `Healthy` at `libHealthy.so`.
  private static func malformedManifest(_ fault: FaultCase) -> String {
    let entry = #"{ "name": "Healthy", "path": "libHealthy.so" }"#
    let sound = #"{ "formatVersion": 1, "plugins": [ \#(entry) ] }"#
    switch fault {
    case .truncatedJSON: return String(sound.prefix(sound.count / 2))
    case .wrongTypes:
      return
        #"{ "formatVersion": "1", "plugins": [ { "name": 7, "path": ["libHealthy.so"], "enabled": "yes" } ] }"#
    case .unknownKeys:
      return
        #"{ "formatVersion": 1, "plugin": [], "plugins": [ { "name": "Healthy", "path": "libHealthy.so", "file": "x" } ] }"#
    case .hugeManifest:
      // 10 MB, almost all of it one string under a key the format allows.
      let padding = String(repeating: "x", count: 10 * 1024 * 1024)
      return #"{ "$schema": "\#(padding)", "formatVersion": 1, "plugins": [ \#(entry) ] }"#
    case .deepNesting:
      let depth = 100_000
      return #"{ "formatVersion": 1, "plugins": "# + String(repeating: "[", count: depth)
        + String(repeating: "]", count: depth) + " }"
    default: return sound
    }
  }

  /// A fresh deployment folder being filled.
  private struct Layout {
    let root: TemporaryDirectory
    var folder: String { root.path + "/deployment" }

    init() throws {
      root = try TemporaryDirectory()
      try FileManager.default.createDirectory(
        atPath: root.path + "/deployment", withIntermediateDirectories: false)
    }

    func makeFolder(_ path: String, mode: Int? = nil) throws {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      // Set after creating, so the umask does not take bits away.
      if let mode { try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path) }
    }

    /// Copies `source` to `relative` (from the manifest's folder).
    func copy(_ source: String, to relative: String, mode: Int? = nil) throws {
      let target = folder + "/" + relative
      try FileManager.default.copyItem(atPath: source, toPath: target)
      if let mode { try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: target) }
    }

    /// A C fixture, `lib<name>.so` of ``CFixtures``, copied in and named `name`.
    func fixture(_ name: String) throws -> FaultDeployment {
      try copy(try CFixtures.directory.get() + "/lib\(name).so", to: "lib\(name).so")
      return try plugin(name, at: "lib\(name).so")
    }

    /// A plugin product of this build, copied in under its own name.
    func built(_ product: String) throws -> FaultDeployment {
      try copy(BuildProducts.library(product), to: "lib\(product).so")
      return try plugin(product, at: "lib\(product).so")
    }

    func plugin(_ name: String, at path: String, manifest text: String? = nil) throws -> FaultDeployment {
      try plugins([(name, path)], manifest: text)
    }

    /// Writes the manifest (`text`, or one naming `entries` in order) and
    /// describes the deployment; `atFault` indexes `entries`.
    func plugins(_ entries: [(name: String, path: String)], atFault: Int = 0, manifest text: String? = nil)
      throws -> FaultDeployment
    {
      let manifest = folder + "/plugins.json"
      if let text {
        try text.write(toFile: manifest, atomically: false, encoding: .utf8)
      } else {
        let lines = entries.map { #"    { "name": "\#($0.name)", "path": "\#($0.path)" }"# }
        try "{\n  \"formatVersion\": 1,\n  \"plugins\": [\n\(lines.joined(separator: ",\n"))\n  ]\n}\n"
          .write(toFile: manifest, atomically: false, encoding: .utf8)
      }
      let plugins = entries.map { (name: $0.name, file: Self.canonical(folder + "/" + $0.path)) }
      guard plugins.indices.contains(atFault) else {
        throw FaultCorpus.Failure(description: "no plugin \(atFault) among \(entries.count)")
      }
      return FaultDeployment(
        root: root, manifest: manifest, plugins: plugins, plugin: plugins[atFault].name,
        file: plugins[atFault].file)
    }

    /// `path` with `..` and symbolic links resolved, as far as they lead.
    private static func canonical(_ path: String) -> String {
      guard let resolved = realpath(path, nil) else {
        return URL(fileURLWithPath: path).standardizedFileURL.path
      }
      defer { free(resolved) }
      return String(cString: resolved)
    }
  }
}
