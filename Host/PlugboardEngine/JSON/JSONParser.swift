#if canImport(Glibc)
  import Glibc
#endif

/// A small strict JSON parser (RFC 8259) producing a ``JSONTape``, or a
/// ``JSONValue`` made from one.
///
/// Written by hand rather than using `JSONSerialization` because manifest
/// diagnostics need exact value kinds (Foundation on Linux reports booleans
/// as numbers), member order, and line:column positions for syntax errors.
package struct JSONParser {
  /// The text, read through a pointer for the length of one parse: read
  /// through the array, every byte cost a retain and a release in the
  /// README's debug build, and a copy of the parser per string.
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  /// The tape being written, and the decoded text of strings with escapes.
  private var entries: [JSONTape.Entry] = []
  private var decoded: [UInt8] = []
  /// Whether some string, key or value, holds a control character
  /// (U+0000–U+001F, U+007F–U+009F), written raw or as an escape. The
  /// manifest refuses them; knowing that none was read spares it a walk
  /// over every string of the document, which cost more than parsing it
  /// on a manifest of a quarter of a million small members.
  private var sawControlCharacter = false
  /// Nesting limit, so hostile input cannot exhaust the stack.
  private let maximumDepth = 512

  private init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    // A member takes two entries and at least four bytes (`"":0,`): room
    // for them all up front spares the copies of a growing tape, 22M
    // instructions of 355M for the hostile_many_ manifests. Pages never
    // written are never touched.
    entries.reserveCapacity(bytes.count / 4 + 1)
  }

  /// Parses one JSON text.
  /// - Throws: ``JSONSyntaxError`` at the first problem.
  package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    let tape = try tape(bytes)
    return tape.value(at: tape.root)
  }

  /// Parses one JSON text, and says whether any of its strings holds a
  /// control character (see ``Terminal/isControl(_:)``), so that a reader
  /// refusing them looks for one only when there is one to find.
  /// - Throws: ``JSONSyntaxError`` at the first problem.
  package static func parseNotingControlCharacters(_ bytes: [UInt8]) throws(JSONSyntaxError)
    -> (value: JSONValue, containsControlCharacter: Bool)
  {
    let tape = try tape(bytes)
    return (tape.value(at: tape.root), tape.containsControlCharacter)
  }

  /// Parses one JSON text into a tape, which also says whether any string
  /// holds a control character.
  /// - Throws: ``JSONSyntaxError`` at the first problem, or for a text of
  ///   4 GiB or more, whose offsets the tape cannot hold (a manifest is
  ///   read only up to 256 MiB).
  package static func tape(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONTape {
    guard bytes.count < Int(UInt32.max) else {
      throw JSONSyntaxError(
        line: 1, column: 1, message: "the text is 4 GiB or longer; a JSON text read here is shorter")
    }
    let parser = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
      var parser = JSONParser(bytes: buffer)
      parser.skipByteOrderMark()
      try parser.value(depth: 0)
      parser.skipWhitespace()
      guard parser.index == buffer.count else { throw parser.failure("unexpected text after the JSON value") }
      return parser
    }
    return JSONTape(
      bytes: bytes, decoded: parser.decoded, entries: parser.entries,
      containsControlCharacter: parser.sawControlCharacter)
  }

  /// Parses one JSON text given as a string.
  package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    try parse(Array(text.utf8))
  }

  // MARK: Values

  private mutating func value(depth: Int) throws(JSONSyntaxError) {
    guard depth < maximumDepth else { throw failure("nested deeper than \(maximumDepth) levels") }
    skipWhitespace()
    guard let byte = peek() else { throw failure("expected a value, found the end of the file") }
    switch byte {
    case UInt8(ascii: "{"): try object(depth: depth)
    case UInt8(ascii: "["): try array(depth: depth)
    case UInt8(ascii: "\""): try string()
    case UInt8(ascii: "t"): try literal("true", .true)
    case UInt8(ascii: "f"): try literal("false", .false)
    case UInt8(ascii: "n"): try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
    default: throw failure("expected a value, found \(describe(byte))")
    }
  }

  /// Opens a container's entry; ``close(_:count:flags:)`` fills it in.
  private mutating func open(_ kind: JSONTape.Kind) -> Int {
    entries.append(JSONTape.Entry(kind: kind, flags: 0, first: 0, second: 0))
    return entries.count - 1
  }

  /// Counts and entries are below the input's length, which
  /// ``tape(_:)`` holds under 4 GiB.
  private mutating func close(_ slot: Int, count: Int, flags: UInt8 = 0) {
    entries[slot].first = UInt32(truncatingIfNeeded: count)
    entries[slot].second = UInt32(truncatingIfNeeded: entries.count)
    entries[slot].flags = flags
  }

  private mutating func object(depth: Int) throws(JSONSyntaxError) {
    index += 1
    let slot = open(.object)
    var count = 0
    var flags: UInt8 = 0
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      index += 1
      close(slot, count: count)
      return
    }
    while true {
      skipWhitespace()
      guard peek() == UInt8(ascii: "\"") else { throw failure("expected a member name in double quotes") }
      try string()
      flags |= entries[entries.count - 1].flags & JSONTape.nonASCIIFlag
      skipWhitespace()
      guard peek() == UInt8(ascii: ":") else { throw failure("expected ':' after the member name") }
      index += 1
      try value(depth: depth + 1)
      count += 1
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        close(slot, count: count, flags: flags)
        return
      default: throw failure("expected ',' or '}' after an object member")
      }
    }
  }

  private mutating func array(depth: Int) throws(JSONSyntaxError) {
    index += 1
    let slot = open(.array)
    var count = 0
    skipWhitespace()
    if peek() == UInt8(ascii: "]") {
      index += 1
      close(slot, count: count)
      return
    }
    while true {
      try value(depth: depth + 1)
      count += 1
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        close(slot, count: count)
        return
      default: throw failure("expected ',' or ']' after an array element")
      }
    }
  }

  private mutating func literal(_ word: StaticString, _ kind: JSONTape.Kind) throws(JSONSyntaxError) {
    let length = word.utf8CodeUnitCount
    guard index + length <= bytes.count,
      word.withUTF8Buffer({ $0.elementsEqual(bytes[index..<index + length]) })
    else { throw failure("expected a value") }
    index += length
    entries.append(JSONTape.Entry(kind: kind, flags: 0, first: 0, second: 0))
  }

  private mutating func number() throws(JSONSyntaxError) {
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
    entries.append(
      JSONTape.Entry(
        kind: .number, flags: 0, first: UInt32(truncatingIfNeeded: start),
        second: UInt32(truncatingIfNeeded: index)))
  }

  private mutating func digits() -> Int {
    let start = index
    while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
    return index - start
  }

  // MARK: Strings

  /// A string's entry. Text with an escape is collected, decoded, in
  /// ``decoded`` (appending to a `String` scalar by scalar copies it on
  /// every escape, which made a 1.6 MB manifest of escapes take 33 s);
  /// text without one is the bytes as written, and no copy is made.
  private mutating func string() throws(JSONSyntaxError) {
    index += 1
    let start = index
    var decodedStart: Int?
    var flags: UInt8 = 0
    var run = index
    while true {
      let stop = Self.plainText(in: bytes, from: index)
      index = stop.end
      if stop.invalidUTF8 { throw invalidUTF8() }
      if stop.control { sawControlCharacter = true }
      if stop.nonASCII { flags |= JSONTape.nonASCIIFlag }
      guard let byte = peek() else { throw failure("unterminated string") }
      if byte == UInt8(ascii: "\"") {
        defer { index += 1 }
        guard let decodedStart else {
          entries.append(
            JSONTape.Entry(
              kind: .string, flags: flags, first: UInt32(truncatingIfNeeded: start),
              second: UInt32(truncatingIfNeeded: index)))
          return
        }
        decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
        entries.append(
          JSONTape.Entry(
            kind: .string, flags: flags | JSONTape.escapedFlag,
            first: UInt32(truncatingIfNeeded: decodedStart),
            second: UInt32(truncatingIfNeeded: decoded.count)))
        return
      }
      if byte == UInt8(ascii: "\\") {
        if decodedStart == nil { decodedStart = decoded.count }
        decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
        if try escape() { flags |= JSONTape.nonASCIIFlag }
        run = index
        continue
      }
      throw failure("control character in a string; write it as an escape such as \\n")
    }
  }

  /// Where the text a string holds as written ends, from `start`: at a
  /// quote, a backslash, a control character, the end of the bytes, or
  /// bytes that are not UTF-8 (RFC 3629: a stray continuation byte, a
  /// sequence cut short, an overlong form, an encoded surrogate, a value
  /// past U+10FFFF). JSON text must be Unicode (RFC 8259 §8.1), and
  /// replacing such bytes silently would make a name nobody wrote.
  /// Works on the buffer so that even a debug build reads a string of
  /// megabytes in well under a second.
  /// `control` says whether the text holds U+007F–U+009F, which JSON
  /// allows unescaped (those below U+0020 stop the text instead);
  /// `nonASCII` whether it holds a byte above 0x7F.
  private static func plainText(in bytes: UnsafeBufferPointer<UInt8>, from start: Int)
    -> (end: Int, invalidUTF8: Bool, control: Bool, nonASCII: Bool)
  {
    var position = start
    var control = false
    var nonASCII = false
    while position < bytes.count {
      let lead = bytes[position]
      if lead < 0x80 {
        if lead == 0x22 || lead == 0x5C || lead < 0x20 { return (position, false, control, nonASCII) }
        if lead == 0x7F { control = true }
        position += 1
        continue
      }
      let length: Int
      var second: (low: UInt8, high: UInt8) = (0x80, 0xBF)
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, second.low) = (3, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: (length, second.high) = (3, 0x9F)
      case 0xF0: (length, second.low) = (4, 0x90)
      case 0xF1...0xF3: length = 4
      case 0xF4: (length, second.high) = (4, 0x8F)
      default: return (position, true, control, true)
      }
      guard position + length <= bytes.count else { return (position, true, control, true) }
      let next = bytes[position + 1]
      guard next >= second.low, next <= second.high else { return (position, true, control, true) }
      for offset in 2..<length where bytes[position + offset] & 0xC0 != 0x80 {
        return (position, true, control, true)
      }
      // U+0080–U+009F: C2 80 to C2 9F.
      if lead == 0xC2, next <= 0x9F { control = true }
      nonASCII = true
      position += length
    }
    return (position, false, control, nonASCII)
  }

  private func invalidUTF8() -> JSONSyntaxError {
    failure(
      "invalid UTF-8 (byte 0x\(String(bytes[index], radix: 16, uppercase: true))); "
        + "JSON text must be UTF-8 (RFC 8259 §8.1): save the manifest as UTF-8")
  }

  /// Reads the escape after a backslash and appends what it means, as
  /// UTF-8, to ``decoded``; says whether that is above U+007F.
  private mutating func escape() throws(JSONSyntaxError) -> Bool {
    let start = index
    index += 1
    guard let byte = peek() else { throw failure("unterminated string") }
    index += 1
    let scalar: Unicode.Scalar
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
      decoded.append(byte)
      return false
    case UInt8(ascii: "b"): scalar = "\u{08}"
    case UInt8(ascii: "f"): scalar = "\u{0C}"
    case UInt8(ascii: "n"): scalar = "\n"
    case UInt8(ascii: "r"): scalar = "\r"
    case UInt8(ascii: "t"): scalar = "\t"
    case UInt8(ascii: "u"): scalar = try unicodeEscape(from: start)
    default:
      index -= 1
      throw failure("invalid escape \\\(String(decoding: [byte], as: UTF8.self))")
    }
    if Terminal.isControl(scalar) { sawControlCharacter = true }
    UTF8.encode(scalar) { decoded.append($0) }
    return !scalar.isASCII
  }

  /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00`, whose backslash is at
  /// `start`. Half a pair is refused there: it encodes no character (RFC
  /// 8259 §8.1), and reading it as U+FFFD would accept a name nobody wrote.
  private mutating func unicodeEscape(from start: Int) throws(JSONSyntaxError) -> Unicode.Scalar {
    let unit = try hexQuad()
    let written = String(decoding: bytes[start..<index], as: UTF8.self)
    switch unit {
    case 0xD800..<0xDC00:
      guard bytes[index...].starts(with: Array("\\u".utf8)) else {
        throw failure(at: start, Self.loneSurrogate(written, "is not followed by a low surrogate"))
      }
      index += 2
      let low = try hexQuad()
      guard (0xDC00..<0xE000).contains(low),
        let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
      else {
        throw failure(at: start, Self.loneSurrogate(written, "is not followed by a low surrogate"))
      }
      return scalar
    case 0xDC00..<0xE000:
      throw failure(at: start, Self.loneSurrogate(written, "does not follow a high surrogate"))
    default:
      guard let scalar = Unicode.Scalar(unit) else { throw failure(at: start, "invalid escape \(written)") }
      return scalar
    }
  }

  private static func loneSurrogate(_ written: String, _ problem: String) -> String {
    "lone surrogate \(written): half of a UTF-16 pair that \(problem); a character above U+FFFF "
      + "is written as a pair such as \\ud83d\\ude00 (RFC 8259 §8.1)"
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

  /// A `switch` rather than `[…].contains`: unoptimised (the README's
  /// debug build), the array literal is allocated for every byte, which
  /// made a 4 MiB manifest of small members take seconds.
  @inline(__always)
  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private mutating func skipByteOrderMark() {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  private func describe(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte)
      ? "'\(String(decoding: [byte], as: UTF8.self))'" : "byte 0x\(String(byte, radix: 16))"
  }

  /// An error at `offset` (the current position by default). The line is
  /// found by counting newlines before it and the column by counting the
  /// Unicode scalars (code points) since the last one, which is what an
  /// editor shows for all but combining sequences. Both are one pass over
  /// the bytes with no copy: an error at the end of a 50 MB one-line
  /// manifest took 24 s and 412 MB to place when the line was turned into
  /// a `String` to count its characters.
  private func failure(at offset: Int? = nil, _ message: String) -> JSONSyntaxError {
    let end = min(offset ?? index, bytes.count)
    var line = 1
    var lineStart = 0
    var column = 1
    if let base = bytes.baseAddress {
      while lineStart < end, let newline = memchr(base + lineStart, 0x0A, end - lineStart) {
        line += 1
        lineStart = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
      }
    }
    for position in lineStart..<end where bytes[position] & 0xC0 != 0x80 { column += 1 }
    return JSONSyntaxError(line: line, column: column, message: message)
  }
}
