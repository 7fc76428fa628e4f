import Testing

@testable import PlugboardEngine

/// The byte scans that let printed text skip escaping and colouring must
/// answer exactly as the scalar-by-scalar rules they stand in for.
@Suite struct TextBytesTests {
  @Test func controlCharactersAreFoundByTheirBytes() {
    #expect(TextBytes.holdsControl("plain text", exceptLineBreaks: false) == false)
    #expect(TextBytes.holdsControl("two\nlines", exceptLineBreaks: true) == false)
    #expect(TextBytes.holdsControl("two\nlines", exceptLineBreaks: false))
    #expect(TextBytes.holdsControl("\u{1B}[31m", exceptLineBreaks: true))
    #expect(TextBytes.holdsControl("delete\u{7F}", exceptLineBreaks: true))
    // C1 controls are two bytes, 0xC2 0x80–0x9F; their neighbours are not controls.
    #expect(TextBytes.holdsControl("next\u{85}line", exceptLineBreaks: true))
    #expect(TextBytes.holdsControl("\u{9B}31m", exceptLineBreaks: true))
    #expect(TextBytes.holdsControl("no\u{A0}break, café, ÿ, 日本", exceptLineBreaks: true) == false)
    #expect(TextBytes.holdsControl("\r\n", exceptLineBreaks: true))
    // Bidirectional controls and the Unicode line separators are three
    // bytes, 0xE2 0x80 0xA8–0xAE and 0xE2 0x81 0xA6–0xA9.
    #expect(TextBytes.holdsControl("evil\u{202E}txt", exceptLineBreaks: true))
    #expect(TextBytes.holdsControl("\u{2066}isolate", exceptLineBreaks: true))
    #expect(TextBytes.holdsControl("line\u{2028}separator", exceptLineBreaks: true))
    #expect(
      TextBytes.holdsControl("dash \u{2014}, ellipsis \u{2026}, \u{2065}", exceptLineBreaks: true) == false)
  }

  @Test func theByteScanAgreesWithTheScalarRuleOnManyStrings() {
    // Scalars near every boundary the scan draws, and ordinary ones.
    let alphabet: [Unicode.Scalar] = [
      "a", "\n", "\r", "\t", "\u{1B}", "\u{1F}", " ", "~", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}",
      "\u{A0}", "\u{C2}", "\u{FF}", "\u{100}", "\u{2027}", "\u{2028}", "\u{2029}", "\u{202A}", "\u{202E}",
      "\u{202F}", "\u{2065}", "\u{2066}", "\u{2069}", "\u{206A}", "\u{FEFF}", "\u{1F600}",
    ]
    var generator = SeededGenerator(seed: 15)
    for length in [0, 1, 2, 3, 8, 15, 16, 40, 300] {
      for _ in 0..<200 {
        var text = ""
        for _ in 0..<length {
          text.unicodeScalars.append(alphabet[Int(generator.next() % UInt64(alphabet.count))])
        }
        for keeping in [false, true] {
          let expected = text.unicodeScalars.contains {
            Terminal.isUnprintable($0) && !(keeping && $0 == "\n")
          }
          #expect(TextBytes.holdsControl(text, exceptLineBreaks: keeping) == expected, "\(Array(text.utf8))")
        }
      }
    }
  }

  @Test func aLineBeginningIsFoundAnywhereInTheText() {
    let labels = ["error:", "warning:"]
    #expect(TextBytes.anyLine(of: "error: at once", beginsWith: labels))
    #expect(TextBytes.anyLine(of: "first\n\nwarning: third", beginsWith: labels))
    #expect(TextBytes.anyLine(of: "not an error: here\n  error: indented", beginsWith: labels) == false)
    #expect(TextBytes.anyLine(of: "", beginsWith: labels) == false)
    #expect(TextBytes.anyLine(of: "ends with a break\n", beginsWith: labels) == false)
    #expect(TextBytes.anyLine(of: "error", beginsWith: labels) == false)
  }

  @Test func longTextIsSanitizedAndColouredAsBefore() {
    // Large enough to live in a buffer of its own, not inside the string.
    let rows = (0..<2_000).map { "  Gen\($0).S0  -  graph  Gen\($0)/Plugin.swift:\($0)" }
    let plain = rows.joined(separator: "\n")
    #expect(Terminal.sanitize(plain, keepingLineBreaks: true) == plain)
    #expect(Highlight.colour(plain) == plain)
    let tainted = plain + "\nerror: \u{9B}2J"
    #expect(Terminal.sanitize(tainted, keepingLineBreaks: true).hasSuffix("\nerror: \\u{9B}2J"))
    #expect(Highlight.colour(tainted).hasSuffix("\n\u{1B}[1;31merror:\u{1B}[0m \u{9B}2J"))
  }
}

/// A small, fixed pseudo-random sequence (SplitMix64), so a failure
/// names an input that comes back on the next run.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
