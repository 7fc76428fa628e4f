import PlugboardKit
import Testing

/// A registration marked `asFallback()` serves its key only when nothing
/// else does, whether the other registration came before it or after, and
/// being replaced is no duplicate for `check`.
@Suite struct FallbackRegistrationTests {
  protocol Logger: Sendable { var name: String { get } }
  struct Plain: Logger { let name = "plain" }
  struct Journal: Logger { let name = "journal" }

  @Test(arguments: [true, false])
  func anotherRegistrationWinsWhateverTheOrder(fallbackFirst: Bool) throws {
    let container = Container()
    func fallback() { container.register((any Logger).self) { _ in Plain() }.asFallback() }
    if fallbackFirst { fallback() }
    container.register((any Logger).self) { _ in Journal() }
    if !fallbackFirst { fallback() }
    #expect(try container.resolve((any Logger).self).name == "journal")
    #expect(container.registrations.count == 1)
    #expect(!container.check().findings.contains { $0.kind == .duplicateRegistration })
  }

  @Test func aFallbackAloneServes() throws {
    let container = Container()
    container.register((any Logger).self) { _ in Plain() }.asFallback()
    #expect(try container.resolve((any Logger).self).name == "plain")
    // Resolved once: a registration made afterwards still replaces it.
    container.register((any Logger).self) { _ in Journal() }
    #expect(try container.resolve((any Logger).self).name == "journal")
  }

  @Test func twoFallbacksAreDuplicatesAndTheLaterWins() throws {
    let container = Container()
    container.register((any Logger).self) { _ in Plain() }.asFallback()
    container.register((any Logger).self) { _ in Journal() }.asFallback()
    #expect(try container.resolve((any Logger).self).name == "journal")
    #expect(container.check().findings.contains { $0.kind == .duplicateRegistration })
  }

  @Test func aNamedFallbackYieldsToTheSameName() throws {
    let container = Container()
    container.register((any Logger).self, name: "audit") { _ in Journal() }
    container.register((any Logger).self, name: "audit") { _ in Plain() }.asFallback()
    #expect(try container.resolve((any Logger).self, name: "audit").name == "journal")
  }
}
