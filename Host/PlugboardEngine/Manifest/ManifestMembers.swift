/// The keys one kind of manifest object allows, as names for messages and
/// as bytes to compare keys on the tape with, so that a key is told apart
/// without making a `String` of it.
struct AllowedKeys {
  let names: [String]
  let bytes: [[UInt8]]
  /// Bit n set when some allowed key is n bytes long (for n under 64):
  /// most unknown keys are told apart by it alone, in a few instructions.
  let lengths: UInt64
  /// Per allowed key, its ``signature(_:)``: an unknown key of an allowed
  /// length (`lpguVersion`, as a fuzzer writes them) is told apart by one
  /// comparison per allowed key, not by comparing bytes.
  private let signatures: [UInt64]

  init(_ names: [String]) {
    self.names = names
    bytes = names.map { Array($0.utf8) }
    lengths = bytes.reduce(0) { $1.count < 64 ? $0 | 1 << UInt64($1.count) : $0 }
    signatures = bytes.map { $0.withUnsafeBufferPointer(Self.signature) }
  }

  /// A text's length (its low byte) and first seven bytes in one word.
  private static func signature(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var word = UInt64(truncatingIfNeeded: text.count) & 0xFF
    var offset = 0
    while offset < min(7, text.count) {
      word |= UInt64(text[offset]) << UInt64(8 * (offset + 1))
      offset += 1
    }
    return word
  }

  /// The position of the key at `key` on `tape` among the allowed ones.
  /// Byte equality is `String` equality here: a text canonically
  /// equivalent to an ASCII key but not equal to it must hold one of the
  /// few characters that decompose to ASCII (`K`, `;`, `` ` ``), and no
  /// allowed key holds one.
  ///
  /// Index loops and `memcmp`, not `enumerated()` and `elementsEqual`:
  /// unoptimised (the README's debug build), each of those is a generic
  /// call that looks up type metadata per byte, which made the 4 MiB
  /// manifest of 290,000 unknown keys take 2 s to check there.
  func position(of key: Int, on tape: JSONTape) -> Int? {
    tape.withText(key) { text in
      let count = text.count
      if count < 64, lengths & 1 << UInt64(count) == 0 { return nil }
      let signature = Self.signature(text)
      return signatures.withUnsafeBufferPointer { signatures in
        var position = 0
        while position < signatures.count {
          if signatures[position] == signature,
            bytes[position].withUnsafeBufferPointer({ ByteTextSet.same($0, text) })
          {
            return position
          }
          position += 1
        }
        return nil
      }
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

/// An object's members on the tape in written order, with the repeated
/// keys left out (the later of two equal keys is the repeat); made by
/// ``ManifestDecoder/distinctMembers(_:at:)``, which has reported them.
struct DistinctMembers: Sequence {
  let members: JSONTape.Members
  /// Per member, whether its key repeats an earlier one; empty when none
  /// does.
  let repeated: [Bool]

  func makeIterator() -> Iterator { Iterator(members: members, repeated: repeated) }

  var underestimatedCount: Int { repeated.isEmpty ? members.underestimatedCount : 0 }

  struct Iterator: IteratorProtocol {
    var members: JSONTape.Members
    let repeated: [Bool]
    var ordinal = 0

    mutating func next() -> (key: Int, value: Int)? {
      while let member = members.next() {
        ordinal += 1
        if repeated.isEmpty || !repeated[ordinal - 1] { return member }
      }
      return nil
    }
  }
}
