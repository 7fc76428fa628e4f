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
enum SharedModuleStamps {
  /// A record longer than this is taken to be garbage.
  static let maximumRecordLength = 4096
  static let recordSymbol = "plugboard_compiled_stamps_v1"
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
    var matched = Set<String>()
    for (module, recorded) in entries {
      guard case .success(let address) = library.symbol("plugboard_stamp_v1_\(module)") else { continue }
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

  static func describe(_ mismatch: Mismatch, plugin file: String) -> String {
    let module = mismatch.module
    let loadedFrom = mismatch.file.map { " from \($0)" } ?? ""
    return
      "was compiled against \(module) \(mismatch.recorded), but the \(module) loaded\(loadedFrom) is "
      + "\(mismatch.loaded): their declarations differ, and the plugin's code could crash the host — "
      + "rebuild the plugin against the loaded \(module): \(RebuildCommand.forLibrary(at: file))"
  }

  /// The record's entries in order, or nil when it is not a record.
  static func parse(_ text: UnsafePointer<CChar>) -> [(String, String)]? {
    let length = strnlen(text, maximumRecordLength + 1)
    guard length <= maximumRecordLength else { return nil }
    let bytes = UnsafeRawBufferPointer(start: text, count: length)
    var entries: [(String, String)] = []
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      let parts = line.split(separator: UInt8(ascii: "="), omittingEmptySubsequences: false)
      guard parts.count == 2, let name = parts.first, let stamp = parts.last, !name.isEmpty,
        name.count <= 128,
        name.allSatisfy(isIdentifierByte), stamp.count == 16, stamp.allSatisfy(isHexDigit)
      else { return nil }
      entries.append((String(decoding: name, as: UTF8.self), String(decoding: stamp, as: UTF8.self)))
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

  private static func isIdentifierByte(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
      || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
  }
}
