/// One thing wrong with a manifest's content, at a place in it:
/// `plugins[2].path: expected a string, found a number`.
public struct ManifestProblem: Equatable, Sendable, CustomStringConvertible {
  public let path: ManifestPath
  public let message: String

  public init(at path: ManifestPath, _ message: String) {
    self.path = path
    self.message = message
  }

  public var description: String { "\(path): \(message)" }
}
