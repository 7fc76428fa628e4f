/// Finds, reads, parses and checks a manifest.
package enum ManifestReader {
  /// The manifest's file name, read from the current folder by default.
  package static let defaultFileName = "plugins.json"

  /// Reads the manifest at `argument` (from `--manifest`), or the default
  /// `./plugins.json` when `argument` is nil. Relative paths are taken from
  /// the current directory; when that cannot be determined (it was
  /// deleted), a relative path is refused rather than taken from `/`.
  /// `origin` says where the argument came from, for the messages; by
  /// default, the command line.
  package static func read(argument: String?, origin: ManifestOrigin? = nil) -> Result<
    Manifest, ManifestError
  > {
    location(argument: argument, origin: origin).flatMap { read(path: $0.path, origin: $0.origin) }
  }

  /// The absolute path `argument` (or the default) names, and why. A
  /// folder names its `plugins.json`, as running in it would.
  package static func location(argument: String?, origin: ManifestOrigin? = nil)
    -> Result<(path: String, origin: ManifestOrigin), ManifestError>
  {
    let origin: ManifestOrigin = origin ?? argument.map { .option($0) } ?? .defaultLocation
    let written = argument ?? defaultFileName
    if written.hasPrefix("/") {
      return .success((inFolder(FilePath.absolute(written, relativeTo: "/")), origin))
    }
    guard let folder = FilePath.currentDirectory else {
      return .failure(
        .unreadable(
          path: written,
          reason: "the current directory cannot be determined (it may have been deleted), so a relative "
            + "path means nothing; \(origin.isEmbedding ? "give" : "pass --manifest with") an absolute path"))
    }
    return .success((inFolder(FilePath.absolute(written, relativeTo: folder)), origin))
  }

  /// `path`, or its `plugins.json` when it is a folder (or a link to one).
  private static func inFolder(_ path: String) -> String {
    guard FileKind.of(FilePath.canonical(path) ?? path) == .directory else { return path }
    return FilePath.absolute(defaultFileName, relativeTo: path)
  }

  /// Reads the manifest at the absolute `path`. The manifest is known by
  /// its canonical path from then on: relative plugin paths and the
  /// default plugin root are its real folder's, so a link
  /// `/etc/app/plugins.json → /opt/app/current/plugins.json` finds the
  /// plugins beside the real file, as the kernel resolves `..`.
  package static func read(path: String, origin: ManifestOrigin) -> Result<Manifest, ManifestError> {
    readWithText(path: path, origin: origin).map(\.manifest)
  }

  /// The manifest at the absolute `path` and the bytes it was decoded
  /// from, for a command that rewrites the file (`plugboard pin`).
  package static func readWithText(path: String, origin: ManifestOrigin)
    -> Result<(manifest: Manifest, text: [UInt8]), ManifestError>
  {
    ManifestFile.read(path, origin: origin).flatMap { file in
      decode(file.contents, path: file.path).map { ($0, file.contents) }
    }
  }

  /// Parses and checks manifest text already in memory, as
  /// ``read(path:origin:)`` does once it has read the file (the benchmark
  /// times this). `path` is the manifest's absolute path, named in every
  /// message and the folder relative plugin paths are resolved against.
  /// - Returns: the manifest, ``ManifestError/syntax(path:_:)`` for text that
  ///   is not JSON, or ``ManifestError/invalid(path:_:)`` with every problem.
  package static func decode(_ contents: [UInt8], path: String) -> Result<Manifest, ManifestError> {
    let tape: JSONTape
    do {
      tape = try JSONParser.tape(contents)
    } catch {
      return .failure(.syntax(path: path, error))
    }
    return ManifestDecoder.decode(tape, path: path)
  }
}
