/// The kinds of value a plugin setting can hold, as a declaration names
/// them to the host (which checks configuration without knowing the
/// plugin's Swift types).
public enum SettingType: String, Sendable, Codable, CaseIterable {
  case string
  case int
  case double
  case bool
  /// A duration, written as a number of seconds (`2.5`).
  case duration

  /// What a value of this type is, for messages: "an integer".
  public var phrase: String {
    switch self {
    case .string: "a string"
    case .int: "an integer"
    case .double: "a number"
    case .bool: "a boolean"
    case .duration: "a duration in seconds (a number ≥ 0)"
    }
  }

  /// The Swift type a plugin reads it as, for listings: `Int`.
  public var swiftName: String {
    switch self {
    case .string: "String"
    case .int: "Int"
    case .double: "Double"
    case .bool: "Bool"
    case .duration: "Duration"
    }
  }

  /// Whether `value` reads as this type; the one rule both a plugin's
  /// reads and `plugboard check` use.
  public func accepts(_ value: SettingValue) -> Bool {
    switch self {
    case .string: String(settingValue: value) != nil
    case .int: Int(settingValue: value) != nil
    case .double: Double(settingValue: value) != nil
    case .bool: Bool(settingValue: value) != nil
    case .duration: Duration(settingValue: value) != nil
    }
  }
}
