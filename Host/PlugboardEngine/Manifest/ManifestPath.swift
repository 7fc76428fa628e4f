/// Where in the manifest a value sits, written as people read it:
/// `plugins[2].path`.
public struct ManifestPath: Hashable, Sendable, CustomStringConvertible {
  enum Component: Hashable, Sendable {
    case key(String)
    case index(Int)
  }

  private(set) var components: [Component] = []

  /// The whole document.
  public static let root = ManifestPath()

  /// The member `key` of the object at this path.
  public func key(_ key: String) -> ManifestPath {
    var path = self
    path.components.append(.key(key))
    return path
  }

  /// The element at `index` of the array at this path.
  public func index(_ index: Int) -> ManifestPath {
    var path = self
    path.components.append(.index(index))
    return path
  }

  /// `plugins[2].path`, or `(top level)` for the document itself. A key's
  /// control characters are escaped (keys are written by whoever wrote the
  /// manifest, and the path is printed), and a key longer than
  /// ``Excerpt/longestQuoted`` characters shows only its start and length.
  public var description: String {
    guard !components.isEmpty else { return "(top level)" }
    var text = ""
    for component in components {
      switch component {
      case .key(let key):
        let shown = Excerpt.of(Terminal.sanitize(key))
        text += text.isEmpty ? shown : ".\(shown)"
      case .index(let index): text += "[\(index)]"
      }
    }
    return text
  }
}
