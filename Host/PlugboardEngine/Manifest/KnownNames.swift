/// Names (the listed plugins') that keys on the tape are looked up among:
/// by bytes while both are ASCII, where that is `String` equality, and as
/// `String`s otherwise (canonically equivalent texts are equal names).
struct KnownNames {
  private let names: Set<String>
  /// The names' bytes, used only when `ascii`: not an optional, whose
  /// unwrapping copied the set (three retains and releases) per lookup.
  private let bytes: ByteTextSet
  private let ascii: Bool
  /// Bit n set when some name is n bytes long, bit 63 when one is longer:
  /// most unknown names (a hostile manifest may put a quarter of a million
  /// in a profile's `config`) are told apart by it without hashing their
  /// bytes.
  private let lengths: UInt64

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
    lengths = names.reduce(0) { $0 | 1 << UInt64(min($1.utf8.count, 63)) }
  }

  /// Whether the string at `key` on `tape` is one of the names.
  func contains(_ key: Int, on tape: JSONTape) -> Bool {
    guard ascii, tape.isASCII(key) else { return names.contains(tape.text(key)) }
    // The length first, outside the closure: one that reads two of the
    // fields copied the whole value, sets and all, per key.
    guard lengths & 1 << UInt64(min(tape.textCount(key), 63)) != 0 else { return false }
    return tape.withText(key) { bytes.contains($0) }
  }
}
