import PlugboardKit
import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

/// The check that a plugin meets the shared modules it was compiled
/// against (contracts that host and plugins use, stamped by PlugboardKit's
/// `PlugboardStamp` build plugin), made before `make_bundle` runs any code
/// that depends on their declarations: a protocol with a requirement added
/// since the plugin was built crashes the host at the first call, where
/// this refuses the plugin naming the module, both stamps and the file.
///
/// A plugin built with the build plugin exports its record,
/// `plugboard_compiled_stamps_v1` (`<Module>=<stamp>` a line); each stamped
/// module exports `plugboard_stamp_v1_<Module>`, looked up in the plugin's
/// own scope, so the answer is the module the plugin is bound to. A plugin
/// without a record, or a module without a stamp, is not compared.
///
/// A module that declares its release (`// plugboard-contracts-version:`,
/// built with library evolution) is compared by version instead, by the
/// rules PlugboardKit's versions follow (``KitCompatibility``): a plugin
/// compiled against 1.2.0 loads with the module's 1.2.x and every later
/// 1.x, whose declarations differ from those it was compiled against only
/// by what library evolution lets a release add. The plugin records the
/// versions in `plugboard_compiled_versions_v1`; the module exports its own
/// as `plugboard_contracts_version_v1_<Module>`.
enum SharedModuleStamps {
  /// A record longer than this is taken to be garbage.
  static let maximumRecordLength = 4096
  static let recordSymbol = "plugboard_compiled_stamps_v1"
  static let versionsSymbol = "plugboard_compiled_versions_v1"
  /// A version longer than this is taken to be garbage.
  static let maximumVersionLength = 64
  /// The plugin's entry point, which only the plugin's own image exports.
  static let entrySymbol = "plugboard_entry_v1"

  /// One shared module as recorded by the plugin and as loaded.
  struct Mismatch: Equatable {
    let module: String
    let recorded: String
    let loaded: String
    /// The canonical path of the module's library, as the dynamic loader
    /// mapped it.
    let file: String?
  }

  /// A reason not to assemble a plugin, continuing "plugin 'X' (file) …".
  struct Problem: Error {
    let detail: String
  }

  /// The shared modules whose loaded stamp is the one `library` (the plugin
  /// at `file`) recorded: the declarations it was built against are the
  /// ones loaded, whichever build of the module's library serves it. Or why
  /// it must not be assembled.
  ///
  /// The record is the plugin's own, not one `dlsym` found in a library
  /// the plugin needs, when the image holding it is the one holding the
  /// plugin's entry point; images are compared as loaded objects (their
  /// base addresses, from `dladdr`), not by path, so a pinned plugin,
  /// opened from a sealed copy, is judged as it would be opened by path.
  static func verify(_ library: DynamicLibrary, file: String) -> Result<Set<String>, Problem> {
    guard case .success(let address) = library.symbol(recordSymbol),
      case .success(let entryPoint) = library.symbol(entrySymbol),
      let image = plugboard_object_base(address),
      image == plugboard_object_base(entryPoint)
    else {
      return .success([])
    }
    let record = unsafeBitCast(address, to: (@convention(c) () -> UnsafePointer<CChar>?).self)
    guard let text = record(), let entries = parse(text) else {
      return .failure(
        Problem(
          detail: "has a malformed \(recordSymbol) (expected lines <Module>=<16 hex digits>, at most "
            + "\(maximumRecordLength) bytes) — rebuild it: \(RebuildCommand.forLibrary(at: file))"))
    }
    let versions: [String: String]
    switch recordedVersions(library, image: image) {
    case .success(let read): versions = read
    case .failure(let problem): return .failure(problem)
    }
    var matched = Set<String>()
    for (module, recorded) in entries {
      guard case .success(let address) = library.symbol("plugboard_stamp_v1_\(module)") else { continue }
      if let compiledAgainst = versions[module],
        case .success(let versionAddress) = library.symbol("plugboard_contracts_version_v1_\(module)")
      {
        let loaded = version(at: versionAddress)
        let compatibility = KitCompatibility(plugin: compiledAgainst, host: loaded ?? "")
        guard compatibility.isAccepted else {
          let refusal = describe(
            compatibility, module: module, compiledAgainst: compiledAgainst, loaded: loaded,
            file: imageFile(of: versionAddress), plugin: file)
          return .failure(Problem(detail: refusal))
        }
        matched.insert(module)
        continue
      }
      let stamp = unsafeBitCast(address, to: (@convention(c) () -> UInt64).self)
      let loaded = hex(stamp())
      guard loaded == recorded else {
        let mismatch = Mismatch(
          module: module, recorded: recorded, loaded: loaded, file: imageFile(of: address))
        return .failure(Problem(detail: describe(mismatch, plugin: file)))
      }
      matched.insert(module)
    }
    return .success(matched)
  }

  /// The versions the plugin recorded, module to version: none when it has
  /// no record of its own (built before modules declared versions, or
  /// against none that does).
  private static func recordedVersions(_ library: DynamicLibrary, image: UnsafeRawPointer)
    -> Result<[String: String], Problem>
  {
    guard case .success(let address) = library.symbol(versionsSymbol), plugboard_object_base(address) == image
    else { return .success([:]) }
    let record = unsafeBitCast(address, to: (@convention(c) () -> UnsafePointer<CChar>?).self)
    guard let text = record(), let entries = parse(text, value: isVersion) else {
      return .failure(
        Problem(
          detail: "has a malformed \(versionsSymbol) (expected lines <Module>=<MAJOR.MINOR.PATCH>, at "
            + "most \(maximumRecordLength) bytes) — rebuild it"))
    }
    return .success(Dictionary(entries, uniquingKeysWith: { first, _ in first }))
  }

  /// The version a module's version function returns, nil when it is not
  /// one.
  private static func version(at address: UnsafeMutableRawPointer) -> String? {
    let function = unsafeBitCast(address, to: (@convention(c) () -> UnsafePointer<CChar>?).self)
    guard let text = function() else { return nil }
    let length = strnlen(text, maximumVersionLength + 1)
    guard length <= maximumVersionLength else { return nil }
    let bytes = Array(UnsafeRawBufferPointer(start: text, count: length))
    guard isVersion(bytes) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Why a plugin compiled against version `compiledAgainst` of `module`
  /// must not run with the `loaded` one, and what to do.
  static func describe(
    _ compatibility: KitCompatibility, module: String, compiledAgainst: String, loaded: String?,
    file: String?, plugin: String
  ) -> String {
    let loadedFrom = file.map { " loaded from \($0)" } ?? ""
    let rebuild = RebuildCommand.forLibrary(at: plugin)
    guard let loaded else {
      return "was compiled against \(module) \(compiledAgainst), but the \(module)\(loadedFrom) declares "
        + "no readable version — deploy a build of \(module) that declares one, or rebuild the plugin "
        + "against the loaded \(module): \(rebuild)"
    }
    let major = SemanticVersion(parsing: loaded)?.major ?? 0
    switch compatibility {
    case .newerMinor:
      return "was compiled against \(module) \(compiledAgainst), newer than the \(module) \(loaded)"
        + "\(loadedFrom): it may call what that \(module) lacks — deploy \(module) \(compiledAgainst) or a "
        + "later \(major).x, or rebuild the plugin against the loaded \(module): \(rebuild)"
    default:
      return "was compiled against \(module) \(compiledAgainst); the \(module)\(loadedFrom) is \(loaded), "
        + "another major version, which promises no compatibility — rebuild the plugin against the "
        + "loaded \(module): \(rebuild)"
    }
  }

  static func describe(_ mismatch: Mismatch, plugin file: String) -> String {
    let module = mismatch.module
    let loadedFrom = mismatch.file.map { " from \($0)" } ?? ""
    return
      "was compiled against \(module) \(mismatch.recorded), but the \(module) loaded\(loadedFrom) is "
      + "\(mismatch.loaded): their declarations differ, and the plugin's code could crash the host — "
      + "rebuild the plugin against the loaded \(module): \(RebuildCommand.forLibrary(at: file))"
  }

  /// The record's entries in order, or nil when it is not a record: each
  /// line `<Module>=<value>`, the value a stamp unless `value` says
  /// otherwise.
  static func parse(_ text: UnsafePointer<CChar>, value: ([UInt8]) -> Bool = isStamp)
    -> [(String, String)]?
  {
    let length = strnlen(text, maximumRecordLength + 1)
    guard length <= maximumRecordLength else { return nil }
    let bytes = UnsafeRawBufferPointer(start: text, count: length)
    var entries: [(String, String)] = []
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      let parts = line.split(separator: UInt8(ascii: "="), omittingEmptySubsequences: false)
      guard parts.count == 2, let name = parts.first, let found = parts.last, !name.isEmpty,
        name.count <= 128, name.allSatisfy(isIdentifierByte), value(Array(found))
      else { return nil }
      entries.append((String(decoding: name, as: UTF8.self), String(decoding: found, as: UTF8.self)))
    }
    return entries
  }

  /// The canonical path of the image holding `address`: the real file of
  /// a library mapped from a sealed copy, as recorded when it was loaded.
  static func imageFile(of address: UnsafeMutableRawPointer) -> String? {
    LoadedLibraries.recordedFile(containing: UnsafeRawPointer(address))
      ?? TypeOrigin.image(containing: UnsafeRawPointer(address))
  }

  static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Whether `bytes` are a stamp: 16 lowercase hex digits.
  static func isStamp(_ bytes: [UInt8]) -> Bool {
    TextBytes.areLowercaseHex(bytes, count: 16)
  }

  /// Whether `bytes` are a semantic version, as the stamp tool lets a
  /// module declare one.
  static func isVersion(_ bytes: [UInt8]) -> Bool {
    bytes.count <= maximumVersionLength
      && SemanticVersion(parsing: String(decoding: bytes, as: UTF8.self)) != nil
      && bytes.allSatisfy { isIdentifierByte($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
  }

  private static func isIdentifierByte(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
  }
}
