/// Where each object of a manifest's top-level `plugins` array sits in the
/// file's bytes, member by member, so a command can change one value and
/// leave every other byte (order, spacing, other keys) as written.
///
/// Meant for text that ``JSONParser`` has already accepted; anything it
/// does not expect makes it return nil rather than guess. It never
/// recurses, so nesting depth costs nothing but a counter.
struct PluginObjectSpans {
  struct Member {
    let key: String
    /// Where the key's opening quote is.
    let keyStart: Int
    /// The value's bytes, from its first byte to just after its last.
    let value: Range<Int>
  }

  struct Object {
    let open: Int
    let close: Int
    let members: [Member]
  }

  private let bytes: [UInt8]
  private var index = 0

  /// The objects of `plugins`, in order (an element that is not an object
  /// is nil), or nil when the text is not shaped as expected.
  static func locate(_ bytes: [UInt8]) -> [Object?]? {
    var scanner = PluginObjectSpans(bytes: bytes)
    return scanner.document()
  }

  /// The top-level object, or nil when the text is not shaped as expected.
  static func topLevel(_ bytes: [UInt8]) -> Object? {
    var scanner = PluginObjectSpans(bytes: bytes)
    return scanner.object()
  }

  private init(bytes: [UInt8]) {
    self.bytes = bytes
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  private mutating func document() -> [Object?]? {
    guard let top = object() else { return nil }
    guard let plugins = top.members.first(where: { $0.key == "plugins" }) else { return nil }
    index = plugins.value.lowerBound
    guard peek() == UInt8(ascii: "[") else { return nil }
    index += 1
    var objects: [Object?] = []
    while true {
      skipWhitespace()
      guard let byte = peek() else { return nil }
      if byte == UInt8(ascii: "]") { return objects }
      if byte == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if byte == UInt8(ascii: "{") {
        guard let element = object() else { return nil }
        objects.append(element)
      } else {
        guard skipValue() else { return nil }
        objects.append(nil)
      }
    }
  }

  /// The object starting at `index` (after whitespace), its members' values
  /// skipped over.
  private mutating func object() -> Object? {
    skipWhitespace()
    guard peek() == UInt8(ascii: "{") else { return nil }
    let open = index
    index += 1
    var members: [Member] = []
    while true {
      skipWhitespace()
      guard let byte = peek() else { return nil }
      switch byte {
      case UInt8(ascii: "}"):
        index += 1
        return Object(open: open, close: index - 1, members: members)
      case UInt8(ascii: ","):
        index += 1
      case UInt8(ascii: "\""):
        let keyStart = index
        guard skipString(), let key = try? JSONParser.parse(Array(bytes[keyStart..<index])),
          case .string(let name) = key
        else { return nil }
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { return nil }
        index += 1
        skipWhitespace()
        let valueStart = index
        guard skipValue() else { return nil }
        members.append(Member(key: name, keyStart: keyStart, value: valueStart..<index))
      default:
        return nil
      }
    }
  }

  /// Moves past one value: a string, a bracketed structure (strings inside
  /// skipped whole), or a literal or number.
  private mutating func skipValue() -> Bool {
    guard let first = peek() else { return false }
    if first == UInt8(ascii: "\"") { return skipString() }
    if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
      var depth = 0
      while let byte = peek() {
        switch byte {
        case UInt8(ascii: "\""):
          guard skipString() else { return false }
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
        default: break
        }
        index += 1
        if depth == 0 { return true }
      }
      return false
    }
    let start = index
    while let byte = peek(), !Self.delimiters.contains(byte) { index += 1 }
    return index > start
  }

  private static let delimiters: Set<UInt8> = Set(",}] \t\r\n".utf8)

  private mutating func skipString() -> Bool {
    index += 1
    while let byte = peek() {
      index += 1
      if byte == UInt8(ascii: "\\") {
        index += 1
      } else if byte == UInt8(ascii: "\"") {
        return true
      }
    }
    return false
  }

  private mutating func skipWhitespace() {
    while let byte = peek(), Self.whitespace.contains(byte) { index += 1 }
  }

  static let whitespace: Set<UInt8> = Set(" \t\r\n".utf8)

  private func peek() -> UInt8? {
    index < bytes.count ? bytes[index] : nil
  }
}

/// The layout a manifest is written in, for the editors that add to it as
/// its author would have.
extension PluginObjectSpans {
  /// The spaces and tabs just before `index` when they begin its line (how
  /// a new line at that depth is indented), else nothing.
  static func indentation(before index: Int, in text: [UInt8]) -> [UInt8] {
    var start = index
    while start > 0, text[start - 1] == UInt8(ascii: " ") || text[start - 1] == UInt8(ascii: "\t") {
      start -= 1
    }
    let lineStarts =
      start == 0 || text[start - 1] == UInt8(ascii: "\n") || text[start - 1] == UInt8(ascii: "\r")
    return lineStarts ? Array(text[start..<index]) : []
  }

  /// The line break `text` is written with: CRLF when it holds a carriage
  /// return, else LF.
  static func lineEnd(of text: ArraySlice<UInt8>) -> [UInt8] {
    text.contains(UInt8(ascii: "\r")) ? [13, 10] : [10]
  }
}
