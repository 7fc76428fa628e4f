import Foundation

/// Pretty, key-sorted JSON for `--json` and `graph --format json`.
enum JSONText {
  static func encode(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Plain strings, numbers and arrays cannot fail to encode; say so if they did.
    guard let data = try? encoder.encode(value) else { return #"{"error":"cannot encode the report"}"# }
    return String(decoding: data, as: UTF8.self)
  }
}
