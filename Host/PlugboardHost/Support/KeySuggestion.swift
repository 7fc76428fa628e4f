/// "Did you mean" for misspelt keys and commands.
enum KeySuggestion {
  /// The candidate closest to `word`, if it is close enough to be a likely
  /// typo: at most a third of the word's length in edits (at least one).
  static func closest(to word: String, among candidates: [String]) -> String? {
    let limit = max(1, word.count / 3)
    let scored = candidates.map { (candidate: $0, distance: distance(word.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= limit else {
      return nil
    }
    return best.candidate
  }

  /// Levenshtein distance, counting a swap of neighbours as one edit.
  static func distance(_ left: String, _ right: String) -> Int {
    let a = Array(left)
    let b = Array(right)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
        }
      }
    }
    return table[a.count][b.count]
  }
}
