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
    // A loop, not `unicodeScalars.map`: the generic map looked its
    // associated types up at run time, for every setting of every plugin,
    // on the way to the first plugin's configuration.
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x61...0x7A: result.append(Unicode.Scalar(UInt8(scalar.value - 32)))
      case 0x41...0x5A, 0x30...0x39: result.append(scalar)
      default: result.append("_")
      }
    }
    return String(result)
  }
}
