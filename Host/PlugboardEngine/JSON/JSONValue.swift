/// A parsed JSON value that keeps what diagnostics need and `JSONDecoder`
/// throws away: the exact kind of every value (a boolean is not a number),
/// object members in their written order, and duplicate keys.
///
/// Not `indirect`: that boxed every value, a string or a number included,
/// in a heap allocation of its own. Objects and arrays already hold their
/// elements in an array's buffer, which is all the recursion needs.
package enum JSONValue: Equatable, Sendable {
  case object([JSONMember])
  case array([JSONValue])
  case string(String)
  /// The number as written, so that `1` and `1.0` stay distinguishable.
  case number(String)
  case bool(Bool)
  case null

  /// The kind with its article, as messages say it: "a number", "an object".
  package var kindDescription: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    }
  }
}

/// One `"key": value` member of a JSON object.
package struct JSONMember: Equatable, Sendable {
  package let key: String
  package let value: JSONValue

  package init(key: String, value: JSONValue) {
    self.key = key
    self.value = value
  }
}
