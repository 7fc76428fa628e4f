import Testing

@testable import PlugboardEngine

/// Columns are as wide as their widest cell in characters, whatever the
/// cells hold: ASCII is measured by its bytes, anything else by counting.
@Suite struct TextTableTests {
  @Test func columnsAreMeasuredInCharactersNotBytes() {
    let table = TextTable(rows: [["é→", "x"], ["abc", "y"], ["a\r\nb", "z"]])
    #expect(table.lines(indent: "  ") == ["  é→   x", "  abc  y", "  a\r\nb  z"])
  }

  @Test func appendedTablesStartEachRowOnANewLine() {
    var text = "Heading"
    TextTable(rows: [["TYPE", "NAME"], ["Café.Service", "-"], ["A", "\"x\""]]).append(to: &text, indent: "  ")
    #expect(text == "Heading\n  TYPE          NAME\n  Café.Service  -\n  A             \"x\"")
  }

  @Test func theLastColumnIsNotPadded() {
    let table = TextTable(rows: [["a", "long"], ["bb", "s"]])
    #expect(table.lines() == ["a   long", "bb  s"])
  }
}
