/// What a plugin says about one setting it reads, type-erased so the host
/// can check configuration and list it: made by ``Setting/declaration``.
public struct SettingDeclaration: Sendable, Equatable, Codable {
  /// The key in the manifest's `config` objects.
  public let name: String
  public let type: SettingType
  /// The value used when configuration gives none.
  public let defaultValue: SettingValue?
  /// Configuration must give a value: there is no default and the plugin
  /// reads it as a non-optional type.
  public let required: Bool
  /// The value is never printed: listings, `check` and every error show
  /// ``SettingValue/redacted`` instead.
  public let secret: Bool
  /// One line saying what it is for.
  public let summary: String

  public init(
    name: String, type: SettingType, defaultValue: SettingValue? = nil, required: Bool, secret: Bool = false,
    summary: String = ""
  ) {
    self.name = name
    self.type = type
    self.defaultValue = defaultValue
    self.required = required
    self.secret = secret
    self.summary = summary
  }
}

extension SettingValue: Codable {
  private enum CodingKeys: String, CodingKey { case string, number, bool, text }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if let text = try container.decodeIfPresent(String.self, forKey: .string) {
      self = .string(text)
    } else if let text = try container.decodeIfPresent(String.self, forKey: .number) {
      self = .number(text)
    } else if let flag = try container.decodeIfPresent(Bool.self, forKey: .bool) {
      self = .bool(flag)
    } else {
      self = .text(try container.decode(String.self, forKey: .text))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .string(let text): try container.encode(text, forKey: .string)
    case .number(let text): try container.encode(text, forKey: .number)
    case .bool(let flag): try container.encode(flag, forKey: .bool)
    case .text(let text): try container.encode(text, forKey: .text)
    }
  }
}
