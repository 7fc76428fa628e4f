import Testing

@testable import PlugboardEngine

/// `pin` adds the entries of drop-in libraries to `plugins` as the file is
/// written: on lines of their own, indented as the entries before them,
/// when the array spans lines; inline otherwise; every other byte kept.
@Suite struct ManifestPinEditorTests {
  static let digest = String(repeating: "a", count: 64)

  static func appending(_ names: [String], to text: String) -> String? {
    ManifestPinEditor.appending(names.map { ($0, digest) }, to: Array(text.utf8))
      .map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func anEmptyArrayGetsTheEntriesInline() {
    #expect(
      Self.appending(["A", "B"], to: #"{ "plugins": [ ] }"#)
        == #"{ "plugins": [{ "name": "A", "sha256": "\#(Self.digest)" }, "#
        + #"{ "name": "B", "sha256": "\#(Self.digest)" } ] }"#)
  }

  @Test func anArrayOverSeveralLinesGetsALineForEachEntry() {
    let text = "{\n  \"plugins\": [\n    { \"name\": \"X\", \"path\": \"libX.so\" }\n  ]\n}\n"
    #expect(
      Self.appending(["A"], to: text)
        == "{\n  \"plugins\": [\n    { \"name\": \"X\", \"path\": \"libX.so\" },\n"
        + "    { \"name\": \"A\", \"sha256\": \"\(Self.digest)\" }\n  ]\n}\n")
  }

  @Test func windowsLineEndsAreKept() {
    let text = "{\r\n  \"plugins\": [\r\n    { \"name\": \"X\", \"path\": \"libX.so\" }\r\n  ]\r\n}\r\n"
    #expect(
      Self.appending(["A"], to: text)
        == "{\r\n  \"plugins\": [\r\n    { \"name\": \"X\", \"path\": \"libX.so\" },\r\n"
        + "    { \"name\": \"A\", \"sha256\": \"\(Self.digest)\" }\r\n  ]\r\n}\r\n")
  }

  @Test func aNameIsWrittenAsAJSONString() {
    #expect(
      Self.appending(["a\"b"], to: #"{"plugins":[{"name":"X","path":"p"}]}"#)
        == #"{"plugins":[{"name":"X","path":"p"}, { "name": "a\"b", "sha256": "\#(Self.digest)" }]}"#)
  }

  @Test func nothingToAddLeavesTheTextAsItWas() {
    #expect(Self.appending([], to: "not even JSON") == "not even JSON")
  }
}
