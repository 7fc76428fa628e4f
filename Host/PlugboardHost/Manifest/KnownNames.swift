/// Names (the listed plugins') that keys on the tape are looked up among:
/// by bytes while both are ASCII, where that is `String` equality, and as
/// `String`s otherwise (canonically equivalent texts are equal names).
struct KnownNames {
  private let names: Set<String>
  private let bytes: ByteTextSet?

  init(_ names: [String]) {
    self.names = Set(names)
    guard names.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) else {
      bytes = nil
      return
    }
    var bytes = ByteTextSet(capacity: names.count)
    for name in names {
      var name = name
      _ = name.withUTF8 { bytes.insert($0) }
    }
    self.bytes = bytes
  }

  /// Whether the string at `key` on `tape` is one of the names.
  func contains(_ key: Int, on tape: JSONTape) -> Bool {
    guard let bytes, tape.isASCII(key) else { return names.contains(tape.text(key)) }
    return tape.withText(key) { bytes.contains($0) }
  }
}
