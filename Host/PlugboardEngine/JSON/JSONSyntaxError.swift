/// Text that is not valid JSON, with the 1-based line and column where
/// reading stopped.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
  public let line: Int
  /// Counted in Unicode scalars (code points) from the start of the line,
  /// so `é` or `😀` before the error counts as one column.
  public let column: Int
  public let message: String

  /// `3:14: expected ',' or '}' after an object member`.
  public var description: String { "\(line):\(column): \(message)" }
}
