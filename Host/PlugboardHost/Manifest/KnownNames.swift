/// Names (the listed plugins') that keys on the tape are looked up among:
/// by bytes while both are ASCII, where that is `String` equality, and as
/// `String`s otherwise (canonically equivalent texts are equal names).
struct KnownNames {
  private let names: Set<String>
  /// The names' bytes, used only when `ascii`: not an optional, whose
  /// unwrapping copied the set (three retains and releases) per lookup.
  private let bytes: ByteTextSet
  private let ascii: Bool

  init(_ names: [String]) {
    self.names = Set(names)
    ascii = names.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
    var bytes = ByteTextSet(capacity: ascii ? names.count : 0)
    if ascii {
      for name in names {
        var name = name
        _ = name.withUTF8 { bytes.insert($0) }
      }
    }
    self.bytes = bytes
  }

  /// Whether the string at `key` on `tape` is one of the names.
  func contains(_ key: Int, on tape: JSONTape) -> Bool {
    guard ascii, tape.isASCII(key) else { return names.contains(tape.text(key)) }
    return tape.withText(key) { bytes.contains($0) }
  }
}
