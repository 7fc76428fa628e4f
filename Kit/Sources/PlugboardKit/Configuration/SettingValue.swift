/// A setting's value as configuration gives it, before a plugin reads it
/// as its declared type.
public enum SettingValue: Sendable, Hashable {
  /// A JSON string.
  case string(String)
  /// A JSON number, as written (`30`, `2.5`), so that no precision is lost
  /// before the declared type reads it.
  case number(String)
  /// A JSON boolean.
  case bool(Bool)
  /// An environment variable's text, which the declared type parses:
  /// `30` reads as an `Int`, `true` as a `Bool`, anything as a `String`.
  case text(String)

  /// What it is, for messages: "a string".
  public var kindPhrase: String {
    switch self {
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .text: "text"
    }
  }

  /// The value as it is written, or ``SettingValue/redacted`` for a
  /// secret: `"https://example.com"`, `30`, `true`.
  public func shown(secret: Bool) -> String {
    if secret { return Self.redacted }
    switch self {
    case .string(let text), .text(let text): return "\"\(Self.escaped(text))\""
    case .number(let text): return text
    case .bool(let flag): return flag ? "true" : "false"
    }
  }

  /// What every listing and message prints in place of a secret's value.
  public static let redacted = "<secret>"

  /// Longest text shown of a value in a message; the rest is elided.
  static let shownLimit = 200

  private static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars.prefix(shownLimit) {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return text.unicodeScalars.count > shownLimit ? result + "…" : result
  }
}
