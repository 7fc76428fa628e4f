import PlugboardKit
import Testing

/// Named requests find their registration however the name is held: a
/// literal (found inline by the words of the `String`), a name of the same
/// bytes built at run time in storage of its own, a name too long to be
/// held inline, or one with non-ASCII or NUL bytes.
@Suite struct NamedLookupTests {
  static let names = [
    "short", "", "n57", "exactly15bytes!", "sixteen-bytes-xx", "a name much longer than fifteen bytes",
    "é日本", "a\u{0}b", "K",
  ]

  /// A container with an `Int` registered under each of ``names`` (its
  /// position), and one registered with no name.
  static func container() -> Container {
    let container = Container()
    for (position, name) in names.enumerated() {
      container.register(Int.self, name: name) { _ in position }
    }
    container.register(Int.self) { _ in -1 }
    return container
  }

  /// `name`'s bytes in a `String` with out-of-line storage, as a name read
  /// from a file or built with `+=` into reserved capacity can be.
  static func heldOutOfLine(_ name: String) -> String {
    var built = ""
    built.reserveCapacity(64)
    built += name
    return built
  }

  @Test func literalNamesFindTheirOwnRegistration() throws {
    let container = Self.container()
    #expect(try container.resolve(Int.self, name: "short") == 0)
    #expect(try container.resolve(Int.self, name: "") == 1)
    #expect(try container.resolve(Int.self, name: "n57") == 2)
    #expect(try container.resolve(Int.self, name: "exactly15bytes!") == 3)
    #expect(try container.resolve(Int.self, name: "sixteen-bytes-xx") == 4)
    #expect(try container.resolve(Int.self, name: "a name much longer than fifteen bytes") == 5)
    #expect(try container.resolve(Int.self, name: "é日本") == 6)
    #expect(try container.resolve(Int.self, name: "a\u{0}b") == 7)
    #expect(try container.resolve(Int.self, name: "K") == 8)
    #expect(try container.resolve(Int.self) == -1)
  }

  @Test func namesBuiltAtRunTimeFindTheSameRegistration() throws {
    let container = Self.container()
    for (position, name) in Self.names.enumerated() {
      #expect(try container.resolve(Int.self, name: Self.heldOutOfLine(name)) == position, "\(name)")
      #expect(try container.resolve(Int.self, name: String(Substring(name))) == position, "\(name)")
    }
  }

  @Test func namesRegisteredOutOfLineAreFoundByLiterals() throws {
    let container = Container()
    for (position, name) in Self.names.enumerated() {
      container.register(Int.self, name: Self.heldOutOfLine(name)) { _ in position }
    }
    #expect(try container.resolve(Int.self, name: "short") == 0)
    #expect(try container.resolve(Int.self, name: "a name much longer than fifteen bytes") == 5)
    #expect(try container.resolve(Int.self, name: "é日本") == 6)
  }

  @Test func aNameDifferingInOneByteIsNotRegistered() {
    let container = Self.container()
    for name in ["shorT", "short ", "n5", "a\u{0}c", "é日", "exactly15bytes?"] {
      #expect(throws: ResolutionError.self, "\(name)") { try container.resolve(Int.self, name: name) }
      #expect(throws: ResolutionError.self, "\(name)") {
        try container.resolve(Int.self, name: Self.heldOutOfLine(name))
      }
    }
  }

  @Test func theSameNameOnAnotherTypeIsAnotherRegistration() throws {
    let container = Self.container()
    container.register(String.self, name: "short") { _ in "string" }
    #expect(try container.resolve(String.self, name: "short") == "string")
    #expect(try container.resolve(Int.self, name: "short") == 0)
    #expect(throws: ResolutionError.self) { try container.resolve(Double.self, name: "short") }
  }

  @Test func aLaterRegistrationUnderTheSameNameWins() throws {
    let container = Self.container()
    _ = try container.resolve(Int.self, name: "short")
    container.register(Int.self, name: Self.heldOutOfLine("short")) { _ in 100 }
    container.register(Int.self, name: "a name much longer than fifteen bytes") { _ in 101 }
    #expect(try container.resolve(Int.self, name: "short") == 100)
    #expect(try container.resolve(Int.self, name: "a name much longer than fifteen bytes") == 101)
  }

  @Test func canonicallyEquivalentNamesAreOneName() throws {
    // "é" as one scalar and as "e" plus a combining accent: equal Strings,
    // different bytes, as `ServiceKey` (and so `check`) already counts them.
    let precomposed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    #expect(precomposed == decomposed && Array(precomposed.utf8) != Array(decomposed.utf8))
    let container = Container()
    container.register(Int.self, name: precomposed) { _ in 1 }
    container.register(Int.self, name: "long name, caf\u{E9} and more") { _ in 2 }
    #expect(try container.resolve(Int.self, name: decomposed) == 1)
    #expect(try container.resolve(Int.self, name: "long name, cafe\u{301} and more") == 2)
    #expect(try container.resolveIfRegistered(Int.self, name: decomposed) == 1)
    // Registered the other way round, and found by the other form.
    let other = Container()
    other.register(Int.self, name: decomposed) { _ in 3 }
    #expect(try other.resolve(Int.self, name: precomposed) == 3)
    // Both registered: one key, so the later registration wins either way.
    let both = Container()
    both.register(Int.self, name: precomposed) { _ in 4 }
    both.register(Int.self, name: decomposed) { _ in 5 }
    #expect(try both.resolve(Int.self, name: precomposed) == 5)
    #expect(try both.resolve(Int.self, name: decomposed) == 5)
    #expect(both.duplicateRegistrations.count == 1)
  }

  @Test func manyNamesAreEachFound() throws {
    let container = Container()
    for index in 0..<5_000 { container.register(Int.self, name: "name\(index)") { _ in index } }
    for index in stride(from: 0, to: 5_000, by: 7) {
      #expect(try container.resolve(Int.self, name: "name\(index)") == index)
    }
    #expect(throws: ResolutionError.self) { try container.resolve(Int.self, name: "name5000") }
  }
}
