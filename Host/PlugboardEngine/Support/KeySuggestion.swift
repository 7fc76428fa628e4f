/// "Did you mean" for misspelt keys and commands.
package enum KeySuggestion {
  /// Longer words get no suggestion. Nobody mistypes a name that long, and
  /// the distance costs the product of the two lengths: without a bound, a
  /// hostile manifest with one 5 MB unknown key took 20 s and 900 MB.
  static let longestWord = 256

  /// The candidate closest to `word`, if it is close enough to be a likely
  /// typo: at most a third of the word's length in edits (at least one).
  /// The first of equally close candidates wins.
  package static func closest(to word: String, among candidates: [String]) -> String? {
    guard word.utf8.count <= longestWord * 4 else { return nil }
    let typed = Array(word.lowercased())
    guard typed.count <= longestWord else { return nil }
    let limit = max(1, typed.count / 3)
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      // The distance is at least the difference in length, so a long
      // candidate is never read past the prefix that proves it too long.
      let other = Array(candidate.prefix(typed.count + limit + 1).lowercased())
      guard abs(other.count - typed.count) <= limit else { continue }
      let distance = distance(typed, other)
      if distance <= limit, distance < best?.distance ?? Int.max {
        best = (candidate, distance)
      }
    }
    return best?.candidate
  }

  /// Levenshtein distance, counting a swap of neighbours as one edit.
  static func distance(_ left: String, _ right: String) -> Int {
    distance(Array(left), Array(right))
  }

  /// The same over characters, keeping three rows of the table rather than
  /// all of it.
  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
  }
}
