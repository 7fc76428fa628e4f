import Foundation

/// Finds, reads, parses and checks a manifest.
public enum ManifestReader {
  /// Reads the manifest at `argument` (from `--manifest`), or the default
  /// `./plugins.json` when `argument` is nil. Relative paths are taken from
  /// the current directory.
  public static func read(argument: String?) -> Result<Manifest, ManifestError> {
    let (path, origin) = location(argument: argument)
    return read(path: path, origin: origin)
  }

  /// The absolute path `argument` (or the default) names, and why.
  static func location(argument: String?) -> (path: String, origin: ManifestOrigin) {
    let origin: ManifestOrigin = argument.map { .option($0) } ?? .defaultLocation
    return (FilePath.absolute(argument ?? "plugins.json", relativeTo: FilePath.currentDirectory), origin)
  }

  /// Reads the manifest at the absolute `path`.
  public static func read(path: String, origin: ManifestOrigin) -> Result<Manifest, ManifestError> {
    readWithText(path: path, origin: origin).map(\.manifest)
  }

  /// The manifest at the absolute `path` and the bytes it was decoded
  /// from, for a command that rewrites the file (`plugboard pin`).
  static func readWithText(path: String, origin: ManifestOrigin)
    -> Result<(manifest: Manifest, text: [UInt8]), ManifestError>
  {
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
    let text = Array(data)
    return decode(text, path: path).map { ($0, text) }
  }

  /// Parses and checks manifest text already in memory, as
  /// ``read(path:origin:)`` does once it has read the file (the benchmark
  /// times this). `path` is the manifest's absolute path, named in every
  /// message and the folder relative plugin paths are resolved against.
  /// - Returns: the manifest, ``ManifestError/syntax(path:_:)`` for text that
  ///   is not JSON, or ``ManifestError/invalid(path:_:)`` with every problem.
  public static func decode(_ contents: [UInt8], path: String) -> Result<Manifest, ManifestError> {
    let document: JSONValue
    do {
      document = try JSONParser.parse(contents)
    } catch {
      return .failure(.syntax(path: path, error))
    }
    return ManifestDecoder.decode(document, path: path)
  }
}
