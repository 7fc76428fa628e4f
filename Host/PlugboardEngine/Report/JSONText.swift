import Foundation

/// Pretty, key-sorted JSON for `--json` and `graph --format json`.
package enum JSONText {
  /// The version every JSON document plugboard prints carries as
  /// `formatVersion`: raised when a field is removed or changes meaning,
  /// not when one is added. Docs/schemas/ describes each document.
  package static let formatVersion = 1

  /// `value` as JSON in which every control character is escaped: the
  /// encoder escapes U+0000–U+001F, this escapes DEL and the C1 controls
  /// (U+007F–U+009F) too, so the text reads the same to a JSON parser and
  /// holds nothing a terminal would act on.
  package static func encode(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Plain strings, numbers and arrays cannot fail to encode; say so if they did.
    guard let data = try? encoder.encode(value) else { return #"{"error":"cannot encode the report"}"# }
    return escapingControls(String(decoding: data, as: UTF8.self))
  }

  /// Outside strings JSON text holds no such character, so each one found
  /// is inside a string, where `\u007F` means the same.
  private static func escapingControls(_ json: String) -> String {
    guard json.unicodeScalars.contains(where: { Terminal.isUnprintable($0) && $0.value >= 0x7F }) else {
      return json
    }
    var result = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
      if Terminal.isUnprintable(scalar), scalar.value >= 0x7F {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }
}
