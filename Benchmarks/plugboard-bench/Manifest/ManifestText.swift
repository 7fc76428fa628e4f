/// A valid manifest of any number of plugin entries, as text, shaped like
/// the sample's: two declared profiles, and entries that use every plugin
/// key (`profiles` with and without `!`, `enabled`) and an escape.
enum ManifestText {
  static func generate(entries: Int) -> [UInt8] {
    var text =
      #"{ "formatVersion": 1, "activeProfile": "live", "#
      + #""profiles": { "live": {}, "mock": { "services": { "APIClient": "Mock" } } }, "plugins": [\#n"#
    text.reserveCapacity(entries * 80)
    for index in 0..<entries {
      // Every tenth name is written with an escape (é), so strings take
      // the parser's slower path too; the names stay unique.
      let name = index % 10 == 5 ? #"Plugin\u00e9\#(index)"# : "Plugin\(index)"
      text += #"    { "name": "\#(name)", "path": "plugins/Plugin\#(index)/libPlugin\#(index).so""#
      switch index % 10 {
      case 3: text += #", "profiles": ["mock"]"#
      case 7: text += #", "profiles": ["!mock"]"#
      case 9: text += #", "enabled": false"#
      default: break
      }
      text += index == entries - 1 ? " }\n" : " },\n"
    }
    text += "  ]\n}\n"
    return Array(text.utf8)
  }
}
