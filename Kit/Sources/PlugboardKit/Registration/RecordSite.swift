/// A ``RegistrationSite`` as a record keeps it: the file and the plugin by
/// their ``SiteStrings`` numbers and the line in 32 bits, 12 bytes in all
/// where the site is 40, so that a registration takes at most 200 bytes.
@usableFromInline
struct RecordSite: Sendable {
  private let file: UInt32
  private let line: Int32
  /// 0 for a registration no plugin made, else the plugin name's number
  /// plus one.
  let plugin: UInt32

  /// The site of a record not yet stored in a container: no file (a
  /// number ``SiteStrings`` never gives out, read as ""), no plugin.
  static let unstamped = RecordSite(file: .max, line: 0, plugin: noPlugin)

  /// The ``plugin`` of a registration no plugin made.
  static let noPlugin: UInt32 = 0

  private init(file: UInt32, line: Int32, plugin: UInt32) {
    self.file = file
    self.line = line
    self.plugin = plugin
  }

  /// `line` beyond 32 bits is kept as the largest that fits: no source
  /// file is that long.
  init(file: UInt32, line: Int, plugin: UInt32) {
    // Clamped by hand: `Int32(clamping:)` is generic, which in a debug
    // build is a call through witness tables, an eighth of a registration.
    let clamped =
      line > Int(Int32.max) ? Int32.max : line < Int(Int32.min) ? Int32.min : Int32(truncatingIfNeeded: line)
    self.init(file: file, line: clamped, plugin: plugin)
  }

  /// The ``plugin`` value of registrations `plugin` makes, numbering its
  /// name if needed.
  static func plugin(_ plugin: String?) -> UInt32 {
    plugin.map { SiteStrings.number(of: $0) &+ 1 } ?? noPlugin
  }

  /// The ``plugin`` value of registrations `plugin` made, if any can have
  /// been: `nil` when no site ever named it.
  static func existingPlugin(_ plugin: String) -> UInt32? {
    SiteStrings.existingNumber(of: plugin).map { $0 &+ 1 }
  }

  /// The name of the plugin a ``plugin`` value stands for.
  static func pluginName(_ plugin: UInt32) -> String? {
    plugin == noPlugin ? nil : SiteStrings.string(numbered: plugin &- 1)
  }

  var site: RegistrationSite {
    RegistrationSite(
      fileID: SiteStrings.string(numbered: file), line: Int(line), plugin: Self.pluginName(plugin))
  }
}
