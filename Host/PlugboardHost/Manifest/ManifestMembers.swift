/// The keys one kind of manifest object allows, as names for messages and
/// as bytes to compare keys on the tape with, so that a key is told apart
/// without making a `String` of it.
struct AllowedKeys {
  let names: [String]
  let bytes: [[UInt8]]
  /// Bit n set when some allowed key is n bytes long (for n under 64):
  /// most unknown keys are told apart by it alone, in a few instructions.
  let lengths: UInt64

  init(_ names: [String]) {
    self.names = names
    bytes = names.map { Array($0.utf8) }
    lengths = bytes.reduce(0) { $1.count < 64 ? $0 | 1 << UInt64($1.count) : $0 }
  }

  /// The position of the key at `key` on `tape` among the allowed ones.
  /// Byte equality is `String` equality here: a text canonically
  /// equivalent to an ASCII key but not equal to it must hold one of the
  /// few characters that decompose to ASCII (`K`, `;`, `` ` ``), and no
  /// allowed key holds one.
  func position(of key: Int, on tape: JSONTape) -> Int? {
    tape.withText(key) { text in
      if text.count < 64, lengths & 1 << UInt64(text.count) == 0 { return nil }
      for (position, candidate) in bytes.enumerated() where candidate.count == text.count {
        if candidate.withUnsafeBufferPointer({ $0.elementsEqual(text) }) { return position }
      }
      return nil
    }
  }
}

/// The allowed members of one manifest object, as places on the tape; a
/// value is made a ``JSONValue`` only when it is asked for, so a large one
/// (the `plugins` list, a `config` block) can be read from the tape.
struct ManifestMembers {
  let tape: JSONTape
  let keys: AllowedKeys
  /// Per allowed key, its value's index on the tape, or -1.
  var nodes: [Int]

  init(tape: JSONTape, keys: AllowedKeys) {
    self.tape = tape
    self.keys = keys
    nodes = Array(repeating: -1, count: keys.names.count)
  }

  /// The value of the member `key`, where on the tape.
  func node(_ key: String) -> Int? {
    guard let position = keys.names.firstIndex(of: key), nodes[position] >= 0 else { return nil }
    return nodes[position]
  }

  subscript(key: String) -> JSONValue? {
    node(key).map { tape.value(at: $0) }
  }
}
