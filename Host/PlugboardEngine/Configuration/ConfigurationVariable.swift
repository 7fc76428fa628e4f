/// The environment variable that sets one plugin setting:
/// `PLUGBOARD_CONFIG_<PLUGIN>_<SETTING>`, plugin and setting names
/// upper-cased with every character other than an ASCII letter or digit
/// replaced by `_` (`Networking`'s `baseURL` is
/// `PLUGBOARD_CONFIG_NETWORKING_BASEURL`).
package enum ConfigurationVariable {
  package static let prefix = "PLUGBOARD_CONFIG_"

  /// The variable's name for `setting` of `plugin`.
  package static func name(plugin: String, setting: String) -> String {
    prefix + normalized(plugin) + "_" + normalized(setting)
  }

  private static func normalized(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { scalar in
          switch scalar {
          case "a"..."z": Unicode.Scalar(scalar.value - 32) ?? "_"
          case "A"..."Z", "0"..."9": scalar
          default: "_"
          }
        }))
  }
}
