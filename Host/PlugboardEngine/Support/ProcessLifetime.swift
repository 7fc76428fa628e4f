/// Values a command holds until the process exits instead of freeing them.
///
/// `list` and `check` exit right after printing their report: freeing a
/// deployment of thousands of registrations, its graph and its listing one
/// allocation at a time on the way out is work whose result nobody sees.
/// Only for what a command-line command made; a program that
/// embeds the host frees what it holds.
package enum ProcessLifetime {
  private final class Kept<Value> {
    let value: Value

    init(_ value: Value) {
      self.value = value
    }
  }

  /// Keeps `value` (a copy, which for a struct holds the same storage)
  /// alive until the process exits.
  package static func keep<Value>(_ value: Value) {
    _ = Unmanaged.passRetained(Kept(value))
  }
}
