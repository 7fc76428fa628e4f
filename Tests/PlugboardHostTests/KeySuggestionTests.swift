import Testing

@testable import PlugboardEngine

@Suite struct KeySuggestionTests {
  @Test func suggestsTheFirstClosestCandidateWithinAThirdOfTheWord() {
    #expect(KeySuggestion.closest(to: "plugin", among: ["profiles", "plugins"]) == "plugins")
    #expect(KeySuggestion.closest(to: "PLUGNIS", among: ["plugins"]) == "plugins")
    #expect(KeySuggestion.closest(to: "nmae", among: ["path", "name", "same"]) == "name")
    #expect(KeySuggestion.closest(to: "xyz", among: ["plugins", "name"]) == nil)
    #expect(KeySuggestion.closest(to: "pat", among: ["path", "pats"]) == "path")
  }

  @Test func countsASwapOfNeighboursAsOneEdit() {
    #expect(KeySuggestion.distance("formatVersion", "fromatVersion") == 1)
    #expect(KeySuggestion.distance("", "abc") == 3)
    #expect(KeySuggestion.distance("kitten", "sitting") == 3)
  }

  /// A manifest is hostile input: a huge key must not cost the product of
  /// the lengths, so words past the bound get no suggestion at all.
  @Test func suggestsNothingForAWordLongerThanTheBound() {
    let long = String(repeating: "a", count: KeySuggestion.longestWord)
    #expect(KeySuggestion.closest(to: long + "b", among: [long]) == nil)
    #expect(KeySuggestion.closest(to: String(long.dropLast()) + "b", among: [long]) == long)
    #expect(KeySuggestion.closest(to: "plugins", among: [String(repeating: "p", count: 1_000_000)]) == nil)
  }
}
