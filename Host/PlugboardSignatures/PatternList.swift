/// OpenSSH's pattern lists (`match_pattern_list`): comma-separated
/// patterns where `*` matches any run of characters and `?` any one, and a
/// pattern that starts with `!` denies. A name matches when some pattern
/// matches it and no negated one does.
///
///     PatternList("team-a-*,!team-a-legacy").matches("team-a-login")  // true
package struct PatternList: Sendable, Equatable, CustomStringConvertible {
  private let patterns: [(negated: Bool, bytes: [UInt8])]
  package let description: String

  package init(_ text: String) {
    description = text
    patterns = text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { part in
      part.first == UInt8(ascii: "!") ? (true, Array(part.dropFirst())) : (false, Array(part))
    }
  }

  package static func == (a: PatternList, b: PatternList) -> Bool { a.description == b.description }

  package func matches(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    var matched = false
    for pattern in patterns where Self.match(bytes, pattern.bytes) {
      if pattern.negated { return false }
      matched = true
    }
    return matched
  }

  /// Glob matching with one backtracking point (the last `*`): time
  /// linear in the product of the lengths at worst, never exponential.
  static func match(_ name: [UInt8], _ pattern: [UInt8]) -> Bool {
    var n = 0
    var p = 0
    var star: Int?
    var resume = 0
    while n < name.count {
      if p < pattern.count && (pattern[p] == UInt8(ascii: "?") || pattern[p] == name[n]) {
        n += 1
        p += 1
      } else if p < pattern.count && pattern[p] == UInt8(ascii: "*") {
        star = p
        resume = n
        p += 1
      } else if let starAt = star {
        p = starAt + 1
        resume += 1
        n = resume
      } else {
        return false
      }
    }
    while p < pattern.count && pattern[p] == UInt8(ascii: "*") { p += 1 }
    return p == pattern.count
  }
}
