import Foundation

/// Where a command writes: data to standard output, diagnostics to
/// standard error. Commands take one so tests can capture both.
public protocol Console: Sendable {
  /// Writes `line` and a newline to standard output.
  func out(_ line: String)
  /// Writes `line` and a newline to standard error.
  func err(_ line: String)
}

/// The process's own standard output and error.
public struct StandardConsole: Console {
  public init() {}

  public func out(_ line: String) {
    // `print` shares stdio's buffer with whatever the application prints,
    // so the two stay in order.
    print(line)
  }

  public func err(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
