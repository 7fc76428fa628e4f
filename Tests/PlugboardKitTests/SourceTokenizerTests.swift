import PlugboardStamping
import Testing

/// What the stamp of a module sees of its sources: tokens, without the
/// comments and whitespace around them, strings kept whole.
@Suite struct SourceTokenizerTests {
  func tokens(_ text: String, _ language: SourceTokenizer.Language = .swift) -> [String] {
    SourceTokenizer.tokens(of: text, language: language)
  }

  @Test func whitespaceAndCommentsAreDropped() {
    let expected = ["func", "f", "(", "x", ":", "Int", ")", "->", "Int"]
      .flatMap { $0 == "->" ? ["-", ">"] : [$0] }
    #expect(tokens("func f(x: Int) -> Int") == expected)
    #expect(tokens("func  f( x :Int )\n\t->Int // a line comment") == expected)
    #expect(tokens("/// doc\nfunc /* block */ f(x: Int) -> /** doc block */ Int") == expected)
    #expect(tokens("func f(x: Int) /* outer /* nested */ still a comment */ -> Int") == expected)
  }

  @Test func identifiersStayApart() {
    #expect(tokens("let a") == ["let", "a"])
    #expect(tokens("leta") == ["leta"])
    #expect(tokens("`class` $0 é1") == ["`class`", "$0", "é1"])
  }

  @Test func stringsKeepTheirText() {
    #expect(
      tokens(#"let s = "a // not a comment /* nor this""#) == [
        "let", "s", "=", #""a // not a comment /* nor this""#,
      ])
    #expect(tokens(#""a  b""#) != tokens(#""a b""#))
    #expect(tokens(#""say \"hi\" " x"#) == [#""say \"hi\" ""#, "x"])
  }

  @Test func interpolationsAreTokenized() {
    #expect(tokens(#""a\(x /* c */ + f( y ))b""#) == tokens(#""a\(x+f(y))b""#))
    #expect(tokens(#""\("nested \(1)")""#).count == 1)
  }

  @Test func rawStrings() {
    #expect(tokens(##"#"a "quoted" \n"# x"##) == [##"#"a "quoted" \n"#"##, "x"])
    #expect(tokens(##"#"\#(a  +  b)"#"##) == tokens(##"#"\#(a+b)"#"##))
    #expect(tokens("#if DEBUG") == ["#", "if", "DEBUG"])
  }

  @Test func multiLineStringsIgnoreTheClosingIndentation() {
    let indented = "  let s = \"\"\"\n    one\n      two // kept\n    \"\"\"\n"
    let flush = "let s = \"\"\"\none\n  two // kept\n\"\"\""
    #expect(tokens(indented) == tokens(flush))
    #expect(tokens(flush).last == "\"\"\"\none\n  two // kept\n\"\"\"")
    #expect(tokens("\"\"\"\n  one\n  \"\"\"") != tokens("\"\"\"\n  one!\n  \"\"\""))
  }

  @Test func cNestsNoCommentsAndHasCharacterLiterals() {
    #expect(tokens("/* a /* b */ int x;", .c) == ["int", "x", ";"])
    #expect(tokens(#"char q = '"'; int y;"#, .c) == ["char", "q", "=", #"'"'"#, ";", "int", "y", ";"])
  }

  @Test func unfinishedTextStillEnds() {
    #expect(tokens("\"open") == ["\"open\""])
    #expect(tokens("/* open") == [])
    #expect(!tokens(String(repeating: #""\("#, count: 10_000)).isEmpty)
  }
}
