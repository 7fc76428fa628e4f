/// Writes `sha256` pins into a manifest's text, changing only those
/// values: an existing pin's value is replaced in place, a missing one is
/// added as the object's last member, on its own line when the object
/// spans several lines (indented as its other members) and after a comma
/// and a space when it is written on one.
package enum ManifestPinEditor {
  /// `text` with plugin `index`'s pin set to `digests[index]`, for every
  /// index given; nil when the text is not shaped as expected (it was
  /// accepted by the parser, so this means a bug, reported as such).
  package static func apply(_ digests: [Int: String], to text: [UInt8]) -> [UInt8]? {
    guard let objects = PluginObjectSpans.locate(text) else { return nil }
    var edits: [(range: Range<Int>, replacement: [UInt8])] = []
    for (index, digest) in digests {
      guard index < objects.count, let object = objects[index], let last = object.members.last else {
        return nil
      }
      let value = Array("\"\(digest)\"".utf8)
      if let existing = object.members.first(where: { $0.key == "sha256" }) {
        edits.append((existing.value, value))
      } else {
        let separator = separator(before: last, in: object, text: text)
        edits.append(
          (last.value.upperBound..<last.value.upperBound, separator + Array("\"sha256\": ".utf8) + value))
      }
    }
    var result = text
    for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
      result.replaceSubrange(edit.range, with: edit.replacement)
    }
    return result
  }

  /// `,` plus a newline and the last member's indentation when the object
  /// is written over several lines, else `, `.
  private static func separator(
    before last: PluginObjectSpans.Member, in object: PluginObjectSpans.Object, text: [UInt8]
  ) -> [UInt8] {
    let newline = UInt8(ascii: "\n")
    guard text[object.open..<object.close].contains(newline) else { return Array(", ".utf8) }
    var start = last.keyStart
    while start > 0, text[start - 1] == UInt8(ascii: " ") || text[start - 1] == UInt8(ascii: "\t") {
      start -= 1
    }
    let lineStarts = start == 0 || text[start - 1] == newline || text[start - 1] == UInt8(ascii: "\r")
    let indent = lineStarts ? Array(text[start..<last.keyStart]) : []
    let lineEnd: [UInt8] = text[object.open..<object.close].contains(UInt8(ascii: "\r")) ? [13, 10] : [10]
    return [UInt8(ascii: ",")] + lineEnd + indent
  }
}
