import PlugboardKit

/// One plugin setting as `list` and `explain` show it: its resolved value
/// (a secret's replaced by ``SettingValue/redacted``) and where it came from.
package struct SettingListing: Encodable, Sendable, Equatable {
  package let name: String
  /// The declared type: `string`, `int`, `double`, `bool` or `duration`.
  package let type: SettingType
  /// The value as written, `<secret>` for a secret; absent when unset.
  package let value: String?
  /// Where the value came from: a manifest key path, `environment variable
  /// NAME`, or `default`; absent when unset.
  package let source: String?
  package let required: Bool
  package let secret: Bool
  package let summary: String
  /// Declared with an optional type (`Setting<String?>`): neither required
  /// nor defaulted. The table shows its type as declared, `String?`.
  let optional: Bool

  private enum CodingKeys: String, CodingKey {
    case name, type, value, source, required, secret, summary
  }

  /// The settings of `resolved`, in declaration order.
  static func of(_ resolved: ResolvedConfiguration) -> [SettingListing] {
    let configuration = resolved.configuration
    return configuration.declarations.map { declaration in
      let configured = configuration.values[declaration.name]
      let value = configured?.value ?? declaration.defaultValue
      return SettingListing(
        name: declaration.name, type: declaration.type,
        value: value.map { Terminal.sanitize(shown($0, declaration)) },
        source: configured.map(\.source.description) ?? (declaration.defaultValue == nil ? nil : "default"),
        required: declaration.required, secret: declaration.secret, summary: declaration.summary,
        optional: !declaration.required && declaration.defaultValue == nil)
    }
  }

  /// Environment text as the declared type reads it: `7`, not `"7"`.
  private static func shown(_ value: SettingValue, _ declaration: SettingDeclaration) -> String {
    if case .text(let text) = value, declaration.type != .string, !declaration.secret { return text }
    return value.shown(secret: declaration.secret)
  }

  /// The settings as a table under a plugin, or nothing when there are none.
  package static func lines(_ settings: [SettingListing], indent: String = "  ") -> [String] {
    guard !settings.isEmpty else { return [] }
    let rows = settings.map { setting in
      [
        setting.name, setting.type.swiftName + (setting.optional ? "?" : ""), setting.value ?? "-",
        setting.source ?? "-",
      ]
    }
    return TextTable(rows: [["SETTING", "TYPE", "VALUE", "FROM"]] + rows).lines(indent: indent)
  }
}
