/// A small strict JSON parser (RFC 8259) producing ``JSONValue``.
///
/// Written by hand rather than using `JSONSerialization` because manifest
/// diagnostics need exact value kinds (Foundation on Linux reports booleans
/// as numbers), member order, and line:column positions for syntax errors.
public struct JSONParser {
  private let bytes: [UInt8]
  private var index = 0
  /// Nesting limit, so hostile input cannot exhaust the stack.
  private let maximumDepth = 512

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Parses one JSON text.
  /// - Throws: ``JSONSyntaxError`` at the first problem.
  public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    var parser = JSONParser(bytes: bytes)
    parser.skipByteOrderMark()
    let value = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.index == bytes.count else { throw parser.failure("unexpected text after the JSON value") }
    return value
  }

  /// Parses one JSON text given as a string.
  public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    try parse(Array(text.utf8))
  }

  // MARK: Values

  private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    guard depth < maximumDepth else { throw failure("nested deeper than \(maximumDepth) levels") }
    skipWhitespace()
    guard let byte = peek() else { throw failure("expected a value, found the end of the file") }
    switch byte {
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    default: throw failure("expected a value, found \(describe(byte))")
    }
  }

  private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    index += 1
    var members: [JSONMember] = []
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard peek() == UInt8(ascii: "\"") else { throw failure("expected a member name in double quotes") }
      let key = try string()
      skipWhitespace()
      guard peek() == UInt8(ascii: ":") else { throw failure("expected ':' after the member name") }
      index += 1
      members.append(JSONMember(key: key, value: try value(depth: depth + 1)))
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return .object(members)
      default: throw failure("expected ',' or '}' after an object member")
      }
    }
  }

  private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if peek() == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      elements.append(try value(depth: depth + 1))
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      default: throw failure("expected ',' or ']' after an array element")
      }
    }
  }

  private mutating func literal(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
    let expected = Array(word.utf8)
    guard bytes[index...].starts(with: expected) else { throw failure("expected a value") }
    index += expected.count
    return value
  }

  private mutating func number() throws(JSONSyntaxError) -> String {
    let start = index
    if peek() == UInt8(ascii: "-") { index += 1 }
    if peek() == UInt8(ascii: "0") {
      index += 1
    } else {
      guard digits() > 0 else { throw failure("expected a digit") }
    }
    if peek() == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { throw failure("expected a digit after '.'") }
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      index += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { throw failure("expected a digit in the exponent") }
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  private mutating func digits() -> Int {
    let start = index
    while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
    return index - start
  }

  // MARK: Strings

  private mutating func string() throws(JSONSyntaxError) -> String {
    index += 1
    var scalars = String.UnicodeScalarView()
    var run: [UInt8] = []
    func flush() {
      scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
      run.removeAll(keepingCapacity: true)
    }
    while true {
      guard let byte = peek() else { throw failure("unterminated string") }
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        flush()
        return String(scalars)
      case UInt8(ascii: "\\"):
        flush()
        scalars.append(try escape())
      case 0..<0x20:
        index -= 1
        throw failure("control character in a string; write it as an escape such as \\n")
      default:
        run.append(byte)
      }
    }
  }

  private mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
    guard let byte = peek() else { throw failure("unterminated string") }
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let unit = try hexQuad()
      if (0xD800..<0xDC00).contains(unit), bytes[index...].starts(with: Array("\\u".utf8)) {
        let next = index
        index += 2
        let low = try hexQuad()
        if (0xDC00..<0xE000).contains(low),
          let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        {
          return scalar
        }
        // Not a pair: the lone high surrogate becomes U+FFFD and the
        // escape after it is read on its own, not swallowed.
        index = next
      }
      return Unicode.Scalar(unit) ?? "\u{FFFD}"
    default:
      index -= 1
      throw failure("invalid escape \\\(String(decoding: [byte], as: UTF8.self))")
    }
  }

  private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = peek(), let digit = hexValue(byte) else {
        throw failure("expected four hexadecimal digits after \\u")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  private func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  // MARK: Reading

  private func peek() -> UInt8? {
    index < bytes.count ? bytes[index] : nil
  }

  private mutating func skipWhitespace() {
    while let byte = peek(), [0x20, 0x09, 0x0A, 0x0D].contains(byte) { index += 1 }
  }

  private mutating func skipByteOrderMark() {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  private func describe(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte)
      ? "'\(String(decoding: [byte], as: UTF8.self))'" : "byte 0x\(String(byte, radix: 16))"
  }

  /// An error at the current position, counting lines and columns in
  /// characters so the column matches what an editor shows.
  private func failure(_ message: String) -> JSONSyntaxError {
    let before = bytes[..<min(index, bytes.count)]
    let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
    let column = String(decoding: bytes[lineStart..<before.endIndex], as: UTF8.self).count + 1
    return JSONSyntaxError(line: line, column: column, message: message)
  }
}
