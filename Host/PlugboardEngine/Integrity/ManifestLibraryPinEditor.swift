/// Writes the top-level `libraryPins` of a manifest's text, changing only
/// that member: an existing one's value is replaced whole, a missing one is
/// added just before `plugins`, on its own line when the manifest spans
/// several lines (indented as `plugins`) and followed by a space when it is
/// written on one.
package enum ManifestLibraryPinEditor {
  /// `text` with `libraryPins` holding `pins` (key as written, digest), in
  /// that order; nil when the text is not shaped as expected (it was
  /// accepted by the parser, so this means a bug, reported as such).
  package static func apply(_ pins: [(key: String, digest: String)], to text: [UInt8]) -> [UInt8]? {
    guard let top = PluginObjectSpans.topLevel(text),
      let plugins = top.members.first(where: { $0.key == "plugins" })
    else { return nil }
    let newline = UInt8(ascii: "\n")
    let lineEnd = PluginObjectSpans.lineEnd(of: text[top.open..<top.close])
    var result = text
    if let existing = top.members.first(where: { $0.key == "libraryPins" }) {
      // Written as it was: over several lines or on one.
      let multiline = text[existing.value].contains(newline)
      let indent = PluginObjectSpans.indentation(before: existing.keyStart, in: text)
      result.replaceSubrange(
        existing.value, with: render(pins, multiline: multiline, indent: indent, lineEnd: lineEnd))
    } else {
      let indent = PluginObjectSpans.indentation(before: plugins.keyStart, in: text)
      let multiline = text[top.open..<top.close].contains(newline) && !indent.isEmpty
      let value = render(pins, multiline: multiline, indent: indent, lineEnd: lineEnd)
      let separator = multiline ? [UInt8(ascii: ",")] + lineEnd + indent : Array(", ".utf8)
      result.insert(contentsOf: Array("\"libraryPins\": ".utf8) + value + separator, at: plugins.keyStart)
    }
    return result
  }

  private static func render(
    _ pins: [(key: String, digest: String)], multiline: Bool, indent: [UInt8], lineEnd: [UInt8]
  ) -> [UInt8] {
    guard !pins.isEmpty else { return Array("{}".utf8) }
    let members = pins.map { Array("\(quoted($0.key)): \"\($0.digest)\"".utf8) }
    guard multiline, !indent.isEmpty else {
      return Array("{ ".utf8) + Array(members.joined(separator: Array(", ".utf8))) + Array(" }".utf8)
    }
    let inner = indent + indent
    let separator = [UInt8(ascii: ",")] + lineEnd + inner
    return [UInt8(ascii: "{")] + lineEnd + inner + Array(members.joined(separator: separator)) + lineEnd
      + indent
      + [UInt8(ascii: "}")]
  }

  /// `text` as a JSON string.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
