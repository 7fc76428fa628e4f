import Testing

@testable import PlugboardHost

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

  @Test func replacesALoneSurrogateAndKeepsTheEscapeAfterIt() throws {
    #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("\u{1F600}"))
    #expect(try JSONParser.parse(#""\ud800\u0041""#) == .string("\u{FFFD}A"))
    #expect(try JSONParser.parse(#""\ud800\ud83d\ude00x""#) == .string("\u{FFFD}\u{1F600}x"))
    #expect(try JSONParser.parse(#""\udc00\ud800""#) == .string("\u{FFFD}\u{FFFD}"))
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
