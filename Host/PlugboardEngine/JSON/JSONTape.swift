/// A parsed JSON text as a flat tape of entries over its bytes: no tree
/// node and no `String` per value, so that reading a member the manifest
/// only counts (an unknown key past the listed problems, say) costs the
/// scan of its bytes and two entries.
///
/// Written because the tree of ``JSONValue`` cost more than the problems
/// did: on a hostile 4 MiB manifest of 290,000 unknown keys the parser
/// spent a third of its instructions making a `String` per key, and a
/// tenth releasing the tree again. ``JSONParser`` writes the tape;
/// ``value(at:)`` turns any part of it into a ``JSONValue`` on demand.
///
/// Entries are in document order. An object's entry is followed by its
/// members, each a string entry (the key) and the value's entries; an
/// array's by its elements. A container's entry holds its member or
/// element count and the index just past its last entry, so a value the
/// reader does not want is stepped over in one load.
package struct JSONTape: Sendable {
  package enum Kind: UInt8, Sendable {
    case object, array, string, number, `true`, `false`, null
  }

  struct Entry: Sendable {
    var kind: Kind
    var flags: UInt8
    /// A container's count; a string's or number's first byte.
    var first: UInt32
    /// The index past a container's entries; the end of a string's or
    /// number's bytes.
    var second: UInt32
  }

  /// The text of a string with an escape is in ``decoded``, not ``bytes``.
  static let escapedFlag: UInt8 = 1
  /// A string with a byte above 0x7F; an object with such a key.
  static let nonASCIIFlag: UInt8 = 2

  let bytes: [UInt8]
  /// The text of every string written with an escape, decoded, one after
  /// the other: never longer than the input, as every escape shrinks.
  let decoded: [UInt8]
  let entries: [Entry]
  /// Whether some string, key or value, holds a control character; see
  /// ``JSONParser/parseNotingControlCharacters(_:)``.
  package let containsControlCharacter: Bool

  init(bytes: [UInt8], decoded: [UInt8], entries: [Entry], containsControlCharacter: Bool) {
    self.bytes = bytes
    self.decoded = decoded
    self.entries = entries
    self.containsControlCharacter = containsControlCharacter
  }

  /// The tape of the text `null`.
  package static let null = JSONTape(
    bytes: Array("null".utf8), decoded: [], entries: [Entry(kind: .null, flags: 0, first: 0, second: 0)],
    containsControlCharacter: false)

  /// The document's value.
  package var root: Int { 0 }

  package func kind(_ index: Int) -> Kind { entries[index].kind }

  /// An object's member count or an array's element count; 0 otherwise.
  package func count(_ index: Int) -> Int {
    let entry = entries[index]
    return entry.kind == .object || entry.kind == .array ? Int(entry.first) : 0
  }

  /// The index of the value after the one at `index` (its next sibling).
  package func skip(_ index: Int) -> Int {
    let entry = entries[index]
    return entry.kind == .object || entry.kind == .array ? Int(entry.second) : index + 1
  }

  /// Whether the string at `index` (a key) holds only ASCII, or the object
  /// at `index` only such keys: where byte equality is `String` equality
  /// (no two ASCII texts are canonically equivalent, nor is one of them to
  /// any other text but itself).
  package func isASCII(_ index: Int) -> Bool { entries[index].flags & Self.nonASCIIFlag == 0 }

  /// The kind with its article, as messages say it (``JSONValue/kindDescription``).
  package func kindDescription(_ index: Int) -> String {
    switch kind(index) {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .true, .false: "a boolean"
    case .null: "null"
    }
  }

  /// The text of the string or number at `index`; empty for other kinds.
  package func text(_ index: Int) -> String {
    withText(index) { String(decoding: $0, as: UTF8.self) }
  }

  /// How many bytes ``withText(_:_:)`` reads at `index`, without reading
  /// them: 0 for a kind that has no text.
  package func textCount(_ index: Int) -> Int {
    let entry = entries[index]
    guard entry.kind == .string || entry.kind == .number else { return 0 }
    return max(Int(entry.second) - Int(entry.first), 0)
  }

  /// Whether the value at `index` is `{}`: a `config` block that gives
  /// nothing to check.
  package func isEmptyObject(_ index: Int) -> Bool {
    kind(index) == .object && count(index) == 0
  }

  /// Calls `body` with the bytes of the string or number at `index`
  /// (decoded, for a string with escapes); empty for other kinds.
  package func withText<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    let entry = entries[index]
    guard entry.kind == .string || entry.kind == .number else {
      return body(UnsafeBufferPointer(start: nil, count: 0))
    }
    // Each array read in place: choosing one into a local first cost a
    // retain and a release per key.
    if entry.flags & Self.escapedFlag == 0 {
      return bytes.withUnsafeBufferPointer { body(Self.slice($0, entry)) }
    }
    return decoded.withUnsafeBufferPointer { body(Self.slice($0, entry)) }
  }

  /// Calls `body` with a reader of the texts of strings and numbers by
  /// index, valid only inside `body`: for a loop over many keys, which
  /// ``withText(_:_:)`` would enter the tape's buffers for once per key.
  func withTexts<Result>(_ body: (Texts) -> Result) -> Result {
    bytes.withUnsafeBufferPointer { bytes in
      decoded.withUnsafeBufferPointer { decoded in
        entries.withUnsafeBufferPointer { entries in
          body(Texts(bytes: bytes, decoded: decoded, entries: entries))
        }
      }
    }
  }

  /// The texts of a tape, by index; see ``withTexts(_:)``.
  struct Texts {
    fileprivate let bytes: UnsafeBufferPointer<UInt8>
    fileprivate let decoded: UnsafeBufferPointer<UInt8>
    fileprivate let entries: UnsafeBufferPointer<Entry>

    /// The bytes of the string or number at `index` (decoded, for a string
    /// with escapes); empty for other kinds and outside the tape.
    subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
      guard entries.indices.contains(index) else { return UnsafeBufferPointer(start: nil, count: 0) }
      let entry = entries[index]
      guard entry.kind == .string || entry.kind == .number else {
        return UnsafeBufferPointer(start: nil, count: 0)
      }
      return JSONTape.slice(entry.flags & JSONTape.escapedFlag == 0 ? bytes : decoded, entry)
    }
  }

  /// The entry's bytes in `buffer`, clamped to it.
  fileprivate static func slice(_ buffer: UnsafeBufferPointer<UInt8>, _ entry: Entry) -> UnsafeBufferPointer<
    UInt8
  > {
    let start = min(Int(entry.first), buffer.count)
    let end = min(max(Int(entry.second), start), buffer.count)
    return UnsafeBufferPointer(rebasing: buffer[start..<end])
  }

  /// The members of the object at `index`, keys and values as indices;
  /// none for another kind.
  package func members(_ index: Int) -> Members {
    Members(entries: entries, position: index + 1, remaining: kind(index) == .object ? count(index) : 0)
  }

  /// The elements of the array at `index`, as indices; none for another kind.
  package func elements(_ index: Int) -> Elements {
    Elements(entries: entries, position: index + 1, remaining: kind(index) == .array ? count(index) : 0)
  }

  package struct Members: Sequence, IteratorProtocol {
    let entries: [Entry]
    var position: Int
    var remaining: Int

    /// Exact: an array made of the members is allocated once.
    package var underestimatedCount: Int { remaining }

    package mutating func next() -> (key: Int, value: Int)? {
      guard remaining > 0, position + 1 < entries.count else { return nil }
      remaining -= 1
      let key = position
      let value = position + 1
      let entry = entries[value]
      position = entry.kind == .object || entry.kind == .array ? Int(entry.second) : value + 1
      return (key, value)
    }
  }

  package struct Elements: Sequence, IteratorProtocol {
    let entries: [Entry]
    var position: Int
    var remaining: Int

    /// Exact: an array made of the elements is allocated once.
    package var underestimatedCount: Int { remaining }

    package mutating func next() -> Int? {
      guard remaining > 0, position < entries.count else { return nil }
      remaining -= 1
      let value = position
      let entry = entries[value]
      position = entry.kind == .object || entry.kind == .array ? Int(entry.second) : value + 1
      return value
    }
  }

  /// The value at `index` as a ``JSONValue``. Recursion is bounded by the
  /// parser's depth limit.
  package func value(at index: Int) -> JSONValue {
    switch kind(index) {
    case .object: .object(members(index).map { JSONMember(key: text($0.key), value: value(at: $0.value)) })
    case .array: .array(elements(index).map { value(at: $0) })
    case .string: .string(text(index))
    case .number: .number(text(index))
    case .true: .bool(true)
    case .false: .bool(false)
    case .null: .null
    }
  }
}
