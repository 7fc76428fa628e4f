/// A setting a plugin reads, declared once and used both to tell the host
/// what the plugin reads and to read it with its type:
///
/// ```swift
/// enum NetworkingSettings {
///   static let baseURL = Setting<String>("baseURL", default: "https://issues.example.com",
///     summary: "where the issue tracker's API is")
///   static let timeout = Setting<Duration>("timeout", default: .seconds(10))
///   static let apiToken = Setting<String?>("apiToken", secret: true)   // optional: reads nil when unset
///   static let region = Setting<String>("region")                      // required: no default
/// }
/// let url = try configuration[NetworkingSettings.baseURL]
/// ```
///
/// A setting with no default whose type is not `Optional` is required:
/// `plugboard check` reports a profile that gives it no value.
public struct Setting<Value: SettingValueConvertible>: Sendable, DeclaredSetting {
  public let name: String
  public let defaultValue: Value?
  public let secret: Bool
  public let summary: String

  /// - Parameters:
  ///   - name: the key in the manifest's `config` objects; also the end of
  ///     its environment variable's name.
  ///   - default: the value when configuration gives none.
  ///   - secret: never print the value (tokens, passwords).
  ///   - summary: one line for `plugboard list` and `check`.
  public init(_ name: String, default: Value? = nil, secret: Bool = false, summary: String = "") {
    self.name = name
    self.defaultValue = `default`
    self.secret = secret
    self.summary = summary
  }

  public var declaration: SettingDeclaration {
    SettingDeclaration(
      name: name, type: Value.settingType, defaultValue: defaultValue?.settingValue,
      required: defaultValue == nil && Value.valueWhenAbsent == nil, secret: secret, summary: summary)
  }
}

/// Any ``Setting``, whatever its type: what
/// `PluginExport.descriptor(name:version:settings:assemblies:)` takes.
public protocol DeclaredSetting: Sendable {
  var declaration: SettingDeclaration { get }
}
