import Testing

@testable import PlugboardEngine

@Suite struct JSONParserTests {
  @Test func keepsKindsOrderAndText() throws {
    let value = try JSONParser.parse(#"{"b": [1.50, true, null], "a": "x\u00e9\n", "c": {}}"#)
    #expect(
      value
        == .object([
          JSONMember(key: "b", value: .array([.number("1.50"), .bool(true), .null])),
          JSONMember(key: "a", value: .string("xé\n")),
          JSONMember(key: "c", value: .object([])),
        ]))
  }

  /// The parser's word that no string holds a control character lets the
  /// manifest skip looking at every string: it must never miss one, raw
  /// (U+007F–U+009F are legal unescaped JSON) or escaped, in a key or a
  /// value, and must not see one in neighbouring characters.
  @Test(arguments: [
    (#"{"a\u0000": 1}"#, true), (#"["x\n"]"#, true), (#"["\u001F"]"#, true), (#"["\u007f"]"#, true),
    (#"["\u009F"]"#, true), ("[\"a\u{7F}\"]", true), ("{\"\u{85}\": 1}", true), ("[\"\u{9F}z\"]", true),
    (#"["\u00a0", "\u0020", "\"", "\\", "\/"]"#, false), ("[\"é\u{A0}\u{100}😀\u{7E}\"]", false),
    (#"{"a": [1, true, null, {"b": "c"}]}"#, false),
  ])
  func notesControlCharacters(text: String, contains: Bool) throws {
    #expect(
      try JSONParser.parseNotingControlCharacters(Array(text.utf8)).containsControlCharacter == contains)
  }

  @Test func readsSurrogatePairs() throws {
    #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("\u{1F600}"))
    #expect(try JSONParser.parse(#""a\uD83D\uDE00b\u00e9""#) == .string("a\u{1F600}bé"))
  }

  /// Half a surrogate pair encodes no character (RFC 8259 §8.1): refused
  /// where it is written, never read as U+FFFD.
  @Test(arguments: [
    (
      #""\ud800\u0041BC""#,
      "1:2: lone surrogate \\ud800: half of a UTF-16 pair that is not followed by a low surrogate"
    ),
    (
      #"["ab\uD800"]"#,
      "1:5: lone surrogate \\uD800: half of a UTF-16 pair that is not followed by a low surrogate"
    ),
    (
      #""\ud800\ud800\udc00""#,
      "1:2: lone surrogate \\ud800: half of a UTF-16 pair that is not followed by a low surrogate"
    ),
    (
      #""x\udc00\ud800""#,
      "1:3: lone surrogate \\udc00: half of a UTF-16 pair that does not follow a high surrogate"
    ),
  ])
  func refusesALoneSurrogate(text: String, message: String) {
    let advice = "; a character above U+FFFF is written as a pair such as \\ud83d\\ude00 (RFC 8259 §8.1)"
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    do {
      _ = try JSONParser.parse(text)
    } catch {
      #expect(error.description == message + advice)
    }
  }

  /// Bytes that are not UTF-8 are refused at the first bad byte, never
  /// replaced: a stray continuation byte, an overlong form, an encoded
  /// surrogate, a sequence cut short, a value past U+10FFFF, a byte that
  /// never starts a sequence.
  @Test(
    arguments: [
      ([0x80], "0x80"), ([0xC0, 0xAF], "0xC0"), ([0xE0, 0x80, 0xAF], "0xE0"), ([0xED, 0xA0, 0x80], "0xED"),
      ([0xE2, 0x82], "0xE2"), ([0xF4, 0x90, 0x80, 0x80], "0xF4"), ([0xF5, 0x80, 0x80, 0x80], "0xF5"),
      ([0xFF], "0xFF"), ([0xC3, 0x41], "0xC3"),
    ] as [([UInt8], String)])
  func refusesInvalidUTF8(bad: [UInt8], byte: String) {
    let text = Array("{\n \"é\": \"ab".utf8) + bad + Array("\"}".utf8)
    do {
      _ = try JSONParser.parse(text)
      Issue.record("accepted \(bad)")
    } catch {
      #expect(
        error
          == JSONSyntaxError(
            line: 2, column: 10,
            message:
              "invalid UTF-8 (byte \(byte)); JSON text must be UTF-8 (RFC 8259 §8.1): save the manifest as UTF-8"
          ))
    }
  }

  @Test func readsEveryLengthOfUTF8() throws {
    let text = "\"a é € 😀 \u{10FFFF}\""
    #expect(try JSONParser.parse(text) == .string("a é € 😀 \u{10FFFF}"))
  }

  /// Columns count Unicode scalars, so text before the error in any
  /// script moves the column by one per character.
  @Test func countsColumnsInCharacters() {
    #expect(
      throws: JSONSyntaxError(line: 2, column: 6, message: "expected ',' or ']' after an array element")
    ) {
      try JSONParser.parse("[\n\"é😀\" 1]")
    }
    #expect(
      throws: JSONSyntaxError(line: 1, column: 4, message: "expected a value, found the end of the file")
    ) {
      try JSONParser.parse("[1,")
    }
  }

  @Test func reportsTheLineAndColumnOfASyntaxError() {
    #expect(
      throws: JSONSyntaxError(line: 3, column: 3, message: "expected ',' or '}' after an object member")
    ) {
      try JSONParser.parse("{\n  \"a\": 1\n  \"b\": 2\n}")
    }
  }

  @Test(arguments: [
    ("", "1:1: expected a value, found the end of the file"),
    ("[1,]", "1:4: expected a value, found ']'"),
    (#"{"a" 1}"#, "1:6: expected ':' after the member name"),
    ("[1] x", "1:5: unexpected text after the JSON value"),
    (#""abc"#, "1:5: unterminated string"),
    ("01", "1:2: unexpected text after the JSON value"),
  ])
  func rejectsInvalidJSON(text: String, message: String) {
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    do {
      _ = try JSONParser.parse(text)
    } catch {
      #expect(error.description == message)
    }
  }
}
