extension String {
  /// The string followed by spaces up to `width` characters, for columns.
  package func padded(to width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - count))
  }
}
