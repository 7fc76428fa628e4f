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

  /// `text` with a name-only entry, `{ "name": …, "sha256": … }`, appended
  /// to `plugins` for each of `entries`, in order: the pins of drop-in
  /// libraries no entry names. Each goes on its own line, indented as the
  /// last element, when the array is written over several lines, else
  /// after `, `. Nil when the text is not shaped as expected.
  package static func appending(_ entries: [(name: String, digest: String)], to text: [UInt8]) -> [UInt8]? {
    guard !entries.isEmpty else { return text }
    guard let top = PluginObjectSpans.topLevel(text),
      let plugins = top.members.first(where: { $0.key == "plugins" }),
      let elements = PluginObjectSpans.locate(text), plugins.value.count >= 2,
      text[plugins.value.lowerBound] == UInt8(ascii: "["),
      text[plugins.value.upperBound - 1] == UInt8(ascii: "]")
    else { return nil }
    let rendered = entries.map {
      Array("{ \"name\": \(ManifestLibraryPinEditor.quoted($0.name)), \"sha256\": \"\($0.digest)\" }".utf8)
    }
    // Just after the last element, or after `[` when there is none.
    var end = plugins.value.upperBound - 1
    while end > plugins.value.lowerBound + 1, PluginObjectSpans.whitespace.contains(text[end - 1]) {
      end -= 1
    }
    let separator: [UInt8]
    if let last = elements.last ?? nil, text[plugins.value].contains(UInt8(ascii: "\n")) {
      separator =
        [UInt8(ascii: ",")] + PluginObjectSpans.lineEnd(of: text[plugins.value])
        + PluginObjectSpans.indentation(before: last.open, in: text)
    } else {
      separator = Array(", ".utf8)
    }
    let lead = elements.isEmpty ? [] : separator
    var result = text
    result.insert(contentsOf: lead + Array(rendered.joined(separator: separator)), at: end)
    return result
  }

  /// How many elements `plugins` has, so the index of the next one; nil
  /// when the text is not shaped as expected.
  package static func entryCount(in text: [UInt8]) -> Int? {
    PluginObjectSpans.locate(text)?.count
  }

  /// `,` plus a newline and the last member's indentation when the object
  /// is written over several lines, else `, `.
  private static func separator(
    before last: PluginObjectSpans.Member, in object: PluginObjectSpans.Object, text: [UInt8]
  ) -> [UInt8] {
    let written = text[object.open..<object.close]
    guard written.contains(UInt8(ascii: "\n")) else { return Array(", ".utf8) }
    return [UInt8(ascii: ",")] + PluginObjectSpans.lineEnd(of: written)
      + PluginObjectSpans.indentation(before: last.keyStart, in: text)
  }
}
