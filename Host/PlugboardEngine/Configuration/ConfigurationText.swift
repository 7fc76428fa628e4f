import PlugboardAnalysis
import PlugboardKit

/// Sentences about configuration shared by bring-up's failures, `check`'s
/// findings and listings. None of them ever contains a secret's value.
enum ConfigurationText {
  /// `setting 'baseUrl' (profiles.mock.config.Networking.baseUrl) is not declared by the plugin; did you mean "baseURL"?`
  static func unknown(_ setting: ConfigurationResolver.UnknownSetting) -> String {
    "setting '\(setting.name)' (\(setting.source)) is not declared by the plugin"
      + (setting.suggestion.map { "; did you mean \"\($0)\"?" } ?? "")
  }

  /// `baseURL (String, default "https://…")`, `apiToken (String, optional, secret)`.
  static func declaration(_ declaration: SettingDeclaration) -> String {
    declaration.listing
  }

  /// ` in profile 'mock'`, or nothing.
  static func inProfile(_ profile: String?) -> String {
    profile.map { " in profile '\($0)'" } ?? ""
  }
}
