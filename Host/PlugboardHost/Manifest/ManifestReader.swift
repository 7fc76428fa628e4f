import Foundation

/// Finds, reads, parses and checks a manifest.
public enum ManifestReader {
  /// Reads the manifest at `argument` (from `--manifest`), or the default
  /// `./plugins.json` when `argument` is nil. Relative paths are taken from
  /// the current directory.
  public static func read(argument: String?) -> Result<Manifest, ManifestError> {
    let origin: ManifestOrigin = argument.map { .option($0) } ?? .defaultLocation
    let path = FilePath.absolute(argument ?? "plugins.json", relativeTo: FilePath.currentDirectory)
    return read(path: path, origin: origin)
  }

  /// Reads the manifest at the absolute `path`.
  public static func read(path: String, origin: ManifestOrigin) -> Result<Manifest, ManifestError> {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return .failure(.missing(path: path, origin: origin))
    }
    if isDirectory.boolValue {
      return .failure(.unreadable(path: path, reason: "it is a directory; expected a JSON file"))
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      return .failure(.unreadable(path: path, reason: "permission denied or I/O error"))
    }
    let document: JSONValue
    do {
      document = try JSONParser.parse(Array(data))
    } catch {
      return .failure(.syntax(path: path, error))
    }
    return ManifestDecoder.decode(document, path: path)
  }
}
