/// The problems one report lists: the first ``limit`` described, every one
/// after them only counted.
///
/// A problem's text can cost far more than finding it: a did-you-mean
/// measures the edit distance to every candidate, an excerpt copies and
/// escapes a name. Hostile input (a 4 MiB manifest of 240,000 unknown keys,
/// an environment of thousands of misspelt variables) turns that into
/// minutes when every problem is described, listed or not. So the problem
/// is passed unevaluated, and built only while the list has room:
///
/// ```swift
/// var problems = ListedProblems<String>()
/// for key in unknownKeys {
///   // The did-you-mean runs for the first 100 keys only.
///   problems.append("unknown key \(key)" + (KeySuggestion.closest(to: key, among: known) ?? ""))
/// }
/// // problems.listed: at most 100 texts; problems.unlisted: the rest, counted
/// ```
///
/// Past the limit, a problem costs one increment, whatever its text.
struct ListedProblems<Problem> {
  /// How many problems a report describes. Past it, a report is no longer
  /// read line by line, and its length would be the input's to choose.
  static var limit: Int { 100 }

  /// The described problems, in the order they were found.
  private(set) var listed: [Problem] = []
  /// How many more were found and not described.
  private(set) var unlisted = 0

  init() {}

  /// No problem at all, listed or not.
  var isEmpty: Bool { listed.isEmpty && unlisted == 0 }

  /// Every problem found, listed or not.
  var count: Int { listed.count + unlisted }

  /// Whether a new problem would still be described.
  var hasRoom: Bool { listed.count < Self.limit }

  /// Records a problem; `problem` is evaluated only when it is listed.
  mutating func append(_ problem: @autoclosure () -> Problem) {
    guard hasRoom else {
      unlisted += 1
      return
    }
    listed.append(problem())
  }

  /// Records `count` problems past the listed ones at once, for a reader
  /// that listed problems while ``hasRoom`` held and knows how many are
  /// left: counting them one by one cost a call each, and past the
  /// listed ones there may be a quarter of a million (a hostile manifest's
  /// unknown keys).
  mutating func countUnlisted(_ count: Int) {
    unlisted += max(count, 0)
  }

  /// The sentence that stands for the unlisted problems: `"12 more problems
  /// not listed (plugboard lists the first 100)"`, or nil when every
  /// problem is listed.
  var unlistedSummary: String? {
    guard unlisted > 0 else { return nil }
    return "\(unlisted) more problems not listed (plugboard lists the first \(Self.limit))"
  }
}
