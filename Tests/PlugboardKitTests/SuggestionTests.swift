import PlugboardKit
import Testing

/// A type whose name is not ASCII, for the short name's other path.
struct Crème {}

/// Which registration of a suggested key a miss points at, and the short
/// names suggestions are judged by.
@Suite struct SuggestionTests {
  @discardableResult
  func repository(_ container: Container, name: String? = nil, line: Int)
    -> ServiceEntry<KeychainAuthRepository>
  {
    container.register(KeychainAuthRepository.self, name: name, line: line) { _ in
      KeychainAuthRepository(keychain: NoKeychain())
    }
  }

  /// A key registered again is suggested where it was registered last, in
  /// the order of those last registrations.
  @Test func aKeyRegisteredAgainIsSuggestedAtItsLastRegistration() throws {
    let container = Container()
    repository(container, name: "a", line: 1)
    repository(container, name: "b", line: 2)
    repository(container, name: "a", line: 3)
    container.register(LoginUseCase.self, name: "x", line: 4) { _ in
      LoginUseCase(repository: KeychainAuthRepository(keychain: NoKeychain()))
    }
    container.register(LoginUseCase.self, name: "x", line: 5) { _ in
      LoginUseCase(repository: KeychainAuthRepository(keychain: NoKeychain()))
    }
    let similar = try #require(throws: ResolutionError.self) { try container.resolve(AuthRepository.self) }
    #expect(similar.suggestions.map(\.key.name) == ["b", "a"])
    #expect(similar.suggestions.map(\.site.line) == [2, 3])
    #expect(similar.suggestions == similar.suggestions)
    let sameType = try #require(throws: ResolutionError.self) { try container.resolve(LoginUseCase.self) }
    #expect(sameType.suggestions.map(\.site.line) == [5])
  }

  /// A later registration the active profile leaves out does not replace
  /// the one suggested.
  @Test func aRegistrationLeftOutByTheProfileIsNotSuggested() throws {
    let container = Container()
    container.activeProfile = "live"
    repository(container, name: "a", line: 1)
    repository(container, name: "a", line: 2).inProfiles("mock")
    let error = try #require(throws: ResolutionError.self) { try container.resolve(AuthRepository.self) }
    #expect(error.suggestions.map(\.site.line) == [1])
  }

  /// A key the child registers is suggested at the child's last
  /// registration, once, though the parent registers it too.
  @Test func aChildsKeyIsSuggestedFromTheChild() throws {
    let parent = Container()
    repository(parent, name: "a", line: 1)
    repository(parent, name: "b", line: 2)
    let child = Container(parent: parent)
    repository(child, name: "a", line: 3)
    repository(child, name: "a", line: 4)
    let error = try #require(throws: ResolutionError.self) { try child.resolve(AuthRepository.self) }
    #expect(error.suggestions.filter { $0.key.name == "a" }.map(\.site.line) == [4])
    #expect(error.suggestions.filter { $0.key.name == "b" }.map(\.site.line) == [2])
  }

  /// A name that differs from the requested one only in case is the
  /// likeliest meant, then a similar name, then any other (the unnamed
  /// registration among them), each in the order they were registered.
  @Test func aNearlyIdenticalNameIsSuggestedFirst() throws {
    let container = Container()
    repository(container, line: 1)
    repository(container, name: "remote", line: 2)
    repository(container, name: "mocks", line: 3)
    repository(container, name: "Mock", line: 4)
    let error = try #require(throws: ResolutionError.self) {
      try container.resolve(KeychainAuthRepository.self, name: "mock")
    }
    #expect(error.suggestions.map(\.key.name) == ["Mock", "mocks", nil, "remote"])
    #expect(error.suggestions.map(\.reason) == Array(repeating: .otherName, count: 4))
  }

  @Test func shortNamesDropTheModuleAndKeepGenericArguments() {
    #expect(TypeIdentity(KeychainAuthRepository.self).shortName == "KeychainAuthRepository")
    #expect(
      TypeIdentity(Optional<KeychainAuthRepository>.self).shortName
        == "Optional<PlugboardKitTests.KeychainAuthRepository>")
    #expect(
      TypeIdentity([String: Crème].self).shortName == "Dictionary<Swift.String, PlugboardKitTests.Crème>")
    #expect(TypeIdentity(Crème.self).shortName == "Crème")
    #expect(TypeIdentity((any AuthRepository).self).metatypeSpelling == "(any AuthRepository).self")
  }
}
