import Testing

@testable import PlugboardEngine

/// Strings in a manifest that would mean something other than what they
/// say: a NUL that cuts a path short, control characters that would reach
/// a terminal, numbers that only round to the right value, keys of the
/// wrong type.
@Suite struct ManifestStringTests {
  private func problems(_ text: String) throws -> [String] {
    let folder = try TemporaryDirectory()
    let path = try folder.write("plugins.json", text)
    guard case .failure(let error) = ManifestReader.read(path: path, origin: .defaultLocation) else {
      return []
    }
    return error.lines.map { $0.replacingOccurrences(of: path + ": ", with: "") }
  }

  private static let refusal = "strings in a manifest cannot contain control characters"

  @Test func aNULInAPathOrNameIsRefusedAtItsPlace() throws {
    let text = #"""
      { "formatVersion": 1, "plugins": [
        { "name": "Keychain", "path": "lib/libKeychain.so\u0000.evil" },
        { "name": "A\u0000B", "path": "b.so" } ] }
      """#
    let nul = " (a NUL would cut a path or name short at that point); \(Self.refusal)"
    #expect(
      try problems(text) == [
        #"plugins[0].path: contains the control character \u0000 at character 19"# + nul,
        #"plugins[1].name: contains the control character \u0000 at character 2"# + nul,
      ])
  }

  @Test func controlCharactersAreRefusedInEveryStringAndKey() throws {
    let text = #"""
      { "formatVersion": 1, "activeProfile": "live", "pluginRoots": ["ok", "bad\u0007"],
        "profiles": { "live": { "description": "line\nbreak" }, "mo\u001bck": {},
                      "test": { "services": { "API\u009bClient": "Mock", "Store": "M\u007f" } } },
        "plugins": [ { "name": "Evil\u001b[31m\nplugboard: check: all good", "path": "a.so" } ] }
      """#
    let problems = try problems(text)
    let places = problems.map { String($0.prefix { $0 != ":" }) }
    #expect(
      places == [
        "pluginRoots[1]", "profiles.live.description", "profiles.mo\\u{1B}ck",
        "profiles.test.services.API\\u{9B}Client",
        "profiles.test.services.Store", "plugins[0].name",
      ])
    #expect(
      problems[2].hasSuffix(
        #": the key contains the control character \u001B at character 3; \#(Self.refusal)"#))
    #expect(
      problems[5].hasSuffix(#": contains the control character \u001B at character 5; \#(Self.refusal)"#))
    // Nothing printed holds the raw character.
    #expect(!problems.joined().unicodeScalars.contains { Terminal.isControl($0) })
  }

  @Test(arguments: [
    "1.0000000000000001", "0.99999999999999999", "1e-400", "100e-3", "-1", "1e99999999999999999999",
  ])
  func aFormatVersionNearOneIsNotOne(written: String) throws {
    #expect(
      try problems(#"{ "formatVersion": \#(written), "plugins": [] }"#) == [
        "formatVersion: this plugboard reads format 1, found \(written)"
      ])
  }

  @Test(arguments: ["1", "1.0", "1.000", "10e-1", "0.1E+1", "100E-2"])
  func aFormatVersionThatIsExactlyOneIsRead(written: String) throws {
    #expect(try problems(#"{ "formatVersion": \#(written), "plugins": [] }"#) == [])
  }

  @Test func exactNumbersCompareAsDecimals() {
    #expect(ExactNumber("0").isExactly(0))
    #expect(ExactNumber("-0.0e5").isExactly(0))
    #expect(ExactNumber("-20e-1").isExactly(-2))
    #expect(ExactNumber("1200").isExactly(1200))
    #expect(ExactNumber("12e2").isExactly(1200))
    #expect(!ExactNumber("12e2").isExactly(120))
    #expect(!ExactNumber("-2").isExactly(2))
  }

  @Test func theSchemaKeyMustBeAString() throws {
    #expect(
      try problems(#"{ "$schema": 5, "formatVersion": 1, "plugins": [] }"#) == [
        "$schema: expected a string (where editors find the schema), found a number"
      ])
    #expect(try problems(#"{ "$schema": "./plugins.schema.json", "formatVersion": 1, "plugins": [] }"#) == [])
  }
}
