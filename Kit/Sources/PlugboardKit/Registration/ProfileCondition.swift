/// Which profiles a registration serves: a list of expressions, each a
/// profile name or `!name` (any profile but that one). The registration
/// takes part when any expression matches, as with Spring's `@Profile`.
public struct ProfileCondition: Sendable, Hashable, CustomStringConvertible {
  public let expressions: [String]

  public init(_ expressions: [String]) {
    self.expressions = expressions
  }

  /// Whether the condition holds when `profile` is active. With no active
  /// profile, only negations hold.
  public func matches(_ profile: String?) -> Bool {
    expressions.contains { expression in
      if expression.hasPrefix("!") { return String(expression.dropFirst()) != profile }
      return expression == profile
    }
  }

  /// The profile names the condition mentions, without negation marks.
  public var profileNames: [String] {
    expressions.map { $0.hasPrefix("!") ? String($0.dropFirst()) : $0 }
  }

  /// `'mock'`, `'mock' or 'test'`, `every profile but 'live'`.
  public var description: String {
    expressions.map { expression in
      expression.hasPrefix("!")
        ? "every profile but '\(expression.dropFirst())'" : "'\(expression)'"
    }.joined(separator: " or ")
  }
}
