import Foundation

/// What is at a path, as far as loading a library from it goes.
enum FileKind {
  case regular
  case directory
  /// A device, socket, FIFO…: opening one could block or do harm.
  case other

  /// The kind of the existing file at `path` (after following links).
  static func of(_ path: String) -> FileKind {
    let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    switch type {
    case .typeRegular: return .regular
    case .typeDirectory: return .directory
    default: return .other
    }
  }
}
