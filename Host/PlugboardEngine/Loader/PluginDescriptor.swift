import PlugboardABI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The plain-C facts a plugin's `plugboard_entry_v1` returns, copied into
/// Swift strings. Reading it touches no Swift object of the plugin, so it is
/// safe whichever compiler built the plugin.
struct PluginDescriptor {
  let name: String
  let version: String
  let kitVersion: String
  let swiftVersion: String
  /// The descriptor itself, handed back to `make_bundle`.
  let raw: UnsafePointer<plugboard_plugin_v1>

  /// Strings longer than this are taken to be garbage, not metadata.
  static let maximumStringLength = 256

  /// Reads the descriptor at `pointer`, or says in what way it is not one:
  /// a different ABI number in the struct, a struct smaller than this
  /// host's, or a field that is not a string.
  static func read(_ pointer: UnsafeRawPointer, host: HostVersions) -> Result<PluginDescriptor, Defect> {
    if let defect = layoutDefect(pointer, host: host) { return .failure(defect) }
    let typed = pointer.assumingMemoryBound(to: plugboard_plugin_v1.self)
    let fields = typed.pointee
    var missing: [String] = []
    func text(_ field: UnsafePointer<CChar>?, _ label: String) -> String {
      guard let field, strnlen(field, maximumStringLength + 1) <= maximumStringLength else {
        missing.append(label)
        return ""
      }
      return String(decoding: UnsafeRawBufferPointer(start: field, count: strlen(field)), as: UTF8.self)
    }
    let descriptor = PluginDescriptor(
      name: text(fields.name, "name"), version: text(fields.version, "version"),
      kitVersion: text(fields.kit_version, "kit_version"),
      swiftVersion: text(fields.swift_version, "swift_version"), raw: typed)
    if let defect = descriptor.stringDefect(missing: missing) { return .failure(defect) }
    return .success(descriptor)
  }

  /// What is wrong with the struct at `pointer` as a whole, before any of
  /// its layout past the first two fields is trusted: another ABI, or a
  /// struct smaller than this host's.
  private static func layoutDefect(_ pointer: UnsafeRawPointer, host: HostVersions) -> Defect? {
    // The first two fields are the same in every ABI version; read them
    // before trusting the rest of the layout.
    let abi = pointer.load(as: UInt32.self)
    let size = pointer.load(fromByteOffset: 4, as: UInt32.self)
    guard abi == host.abi else {
      return Defect(
        detail: "exports plugboard_entry_v\(host.abi) but its descriptor says plugin ABI \(abi); "
          + "this host speaks \(host.abi)")
    }
    let expectedSize = MemoryLayout<plugboard_plugin_v1>.size
    guard size >= expectedSize else {
      return Defect(
        detail: "has a descriptor of \(size) bytes; expected at least \(expectedSize) (plugboard_plugin_v1)")
    }
    return nil
  }

  /// What is wrong with the descriptor's strings: one with control
  /// characters, or the `missing` fields, which are not strings.
  private func stringDefect(missing: [String]) -> Defect? {
    if missing.isEmpty,
      let (label, value) = strings.first(where: {
        $0.1.unicodeScalars.contains(where: Terminal.isUnprintable)
      })
    {
      // Printed as it is, such a name could recolour the terminal or
      // forge a line of plugboard's own output.
      return Defect(
        detail:
          "has a descriptor whose \(label) \"\(Terminal.sanitize(value))\" contains control characters; "
          + "expected printable UTF-8")
    }
    guard missing.isEmpty else {
      return Defect(
        detail: "has a descriptor whose \(missing.joined(separator: ", ")) "
          + "\(missing.count == 1 ? "is" : "are") not a string; expected NUL-terminated UTF-8 "
          + "of at most \(Self.maximumStringLength) bytes")
    }
    return nil
  }

  /// The fields as (label, value), in the order the struct has them.
  private var strings: [(String, String)] {
    [("name", name), ("version", version), ("kit_version", kitVersion), ("swift_version", swiftVersion)]
  }

  /// Why the memory `plugboard_entry_v1` pointed at is not a usable
  /// descriptor; the text continues "plugin 'X' (file) …".
  struct Defect: Error {
    let detail: String
  }
}
