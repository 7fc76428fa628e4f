/// A Swift type a plugin setting can be read as: `String`, `Int`,
/// `Double`, `Bool`, `Duration`, and `Optional` of any of them (a setting
/// that may be left unset reads as `nil`).
public protocol SettingValueConvertible: Sendable {
  /// The type declared to the host.
  static var settingType: SettingType { get }
  /// The value, or nil when `value` does not read as this type.
  init?(settingValue value: SettingValue)
  /// This value as configuration writes it (a declared default); nil for
  /// an absent optional.
  var settingValue: SettingValue? { get }
  /// What a read returns when no value and no default is given; nil (the
  /// read fails: the setting is required) except for `Optional`.
  static var valueWhenAbsent: Self? { get }
}

extension SettingValueConvertible {
  public static var valueWhenAbsent: Self? { nil }
}

extension String: SettingValueConvertible {
  public static var settingType: SettingType { .string }
  public init?(settingValue value: SettingValue) {
    switch value {
    case .string(let text), .text(let text): self = text
    case .number, .bool: return nil
    }
  }
  public var settingValue: SettingValue? { .string(self) }
}

extension Int: SettingValueConvertible {
  public static var settingType: SettingType { .int }
  /// Only an integer as written (`30`, `-2`): `30.0` and `3e1` are
  /// refused rather than rounded.
  public init?(settingValue value: SettingValue) {
    switch value {
    case .number(let text), .text(let text):
      guard let parsed = Int(text) else { return nil }
      self = parsed
    case .string, .bool: return nil
    }
  }
  public var settingValue: SettingValue? { .number(String(self)) }
}

extension Double: SettingValueConvertible {
  public static var settingType: SettingType { .double }
  /// A finite number; `nan` and `inf` are refused.
  public init?(settingValue value: SettingValue) {
    switch value {
    case .number(let text), .text(let text):
      guard let parsed = Double(text), parsed.isFinite else { return nil }
      self = parsed
    case .string, .bool: return nil
    }
  }
  public var settingValue: SettingValue? { .number(String(self)) }
}

extension Bool: SettingValueConvertible {
  public static var settingType: SettingType { .bool }
  /// A JSON boolean, or the text `true` or `false`.
  public init?(settingValue value: SettingValue) {
    switch value {
    case .bool(let flag): self = flag
    case .text("true"): self = true
    case .text("false"): self = false
    case .text, .string, .number: return nil
    }
  }
  public var settingValue: SettingValue? { .bool(self) }
}

extension Duration: SettingValueConvertible {
  public static var settingType: SettingType { .duration }
  /// A number of seconds, finite, at least 0 and at most a year.
  public init?(settingValue value: SettingValue) {
    guard let seconds = Double(settingValue: value), seconds >= 0, seconds <= 31_536_000 else {
      return nil
    }
    self = .milliseconds(Int64((seconds * 1000).rounded()))
  }
  public var settingValue: SettingValue? {
    let (seconds, attoseconds) = components
    return .number(String(Double(seconds) + Double(attoseconds) / 1e18))
  }
}

extension Optional: SettingValueConvertible where Wrapped: SettingValueConvertible {
  public static var settingType: SettingType { Wrapped.settingType }
  public init?(settingValue value: SettingValue) {
    guard let wrapped = Wrapped(settingValue: value) else { return nil }
    self = .some(wrapped)
  }
  public var settingValue: SettingValue? { self?.settingValue }
  public static var valueWhenAbsent: Self? { .some(.none) }
}
