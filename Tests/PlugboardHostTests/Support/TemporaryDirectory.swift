import Foundation

/// A fresh folder, removed when the value is released. Its path is
/// canonical, so it matches the paths plugboard prints.
final class TemporaryDirectory: Sendable {
  let path: String

  init() throws {
    let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
      "plugboard-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    path = base.resolvingSymlinksInPath().path
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// Writes `text` to `name` inside the folder and returns the file's path.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    let file = path + "/" + name
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  /// Writes a `plugins.json` naming `plugins` (name, path) in order.
  @discardableResult
  func writeManifest(_ plugins: [(name: String, path: String)], name: String = "plugins.json") throws
    -> String
  {
    let entries = plugins.map { #"    { "name": "\#($0.name)", "path": "\#($0.path)" }"# }
    return try write(
      name,
      "{\n  \"formatVersion\": 1, \(BuildProducts.rootsMember)\n  \"plugins\": [\n\(entries.joined(separator: ",\n"))\n  ]\n}\n"
    )
  }
}
