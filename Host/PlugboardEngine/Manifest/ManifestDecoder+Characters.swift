/// The one rule every string of a manifest follows, key or value: no
/// control character (U+0000–U+001F, U+007F–U+009F).
///
/// A NUL cuts a string short on its way to the file system or any C
/// function: `"libKeychain.so\u0000.evil"` would open `libKeychain.so`. An
/// escape or a line break in a name would be printed into plugboard's own
/// diagnostics, where it could recolour the terminal or forge a line. No
/// name, path, profile or description has a use for one, so each is refused
/// at its place before anything else reads the manifest.
extension ManifestDecoder {
  /// Reports every key and string value of `value` that holds a control
  /// character, the first one of each.
  mutating func rejectControlCharacters(in value: JSONValue, at path: ManifestPath) {
    switch value {
    case .object(let members):
      for member in members {
        if let found = Self.firstControlCharacter(in: member.key) {
          report(path.key(member.key), "the key " + Self.describe(found))
        }
        // A member's path is built only to look inside it: one allocation
        // per member made a manifest of 240,000 small members slow.
        switch member.value {
        case .string(let text):
          if let found = Self.firstControlCharacter(in: text) {
            report(path.key(member.key), Self.describe(found))
          }
        case .object, .array: rejectControlCharacters(in: member.value, at: path.key(member.key))
        case .number, .bool, .null: break
        }
      }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        rejectControlCharacters(in: element, at: path.index(index))
      }
    case .string(let text):
      if let found = Self.firstControlCharacter(in: text) { report(path, Self.describe(found)) }
    case .number, .bool, .null:
      break
    }
  }

  /// The first control character of `text` and its position, counted in
  /// Unicode scalars from 1.
  static func firstControlCharacter(in text: String) -> (position: Int, scalar: Unicode.Scalar)? {
    // Every control character's UTF-8 starts with a byte below 0x20, 0x7F
    // or 0xC2 (U+0080–U+009F): a string without one is clean, and is
    // cleared without decoding a scalar.
    let suspect = text.utf8.withContiguousStorageIfAvailable { bytes in
      bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
    }
    if suspect == false { return nil }
    for (offset, scalar) in text.unicodeScalars.enumerated() where Terminal.isControl(scalar) {
      return (offset + 1, scalar)
    }
    return nil
  }

  /// `contains the control character \u0000 at character 38; …`, the
  /// character written as JSON would escape it.
  private static func describe(_ found: (position: Int, scalar: Unicode.Scalar)) -> String {
    let hex = String(found.scalar.value, radix: 16, uppercase: true)
    let escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    let consequence =
      found.scalar.value == 0 ? " (a NUL would cut a path or name short at that point)" : ""
    return "contains the control character \(escape) at character \(found.position)\(consequence); "
      + "strings in a manifest cannot contain control characters"
  }
}
