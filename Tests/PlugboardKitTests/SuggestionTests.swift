import PlugboardKit
import Testing

/// A type whose name is not ASCII, for the short name's other path.
struct Crème {}

/// A type named as one of another module (the standard library's), as a
/// plugin that declares its own copy of a contract names it: for the
/// suggestion of the other module's type, and why it is not the one asked for.
struct SystemRandomNumberGenerator: Sendable {}

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

  /// The type asked for is declared again, with the same name, in
  /// another module: the did-you-mean names that module's type, and the
  /// action names the cause, where registering it again would not help.
  @Test func aTypeDeclaredInTwoModulesIsNamedAsTheCause() throws {
    let container = Container()
    container.register(Swift.SystemRandomNumberGenerator.self, file: "Shared/Random.swift", line: 1) { _ in
      Swift.SystemRandomNumberGenerator()
    }
    container.register(Crème.self, file: "Plugin/Creme.swift", line: 2) { _ in Crème() }
      .dependsOn(SystemRandomNumberGenerator.self)
    let action =
      "SystemRandomNumberGenerator is declared in two modules, PlugboardKitTests and Swift, so they are two "
      + "types: declare it once, in the shared contracts package, and import it from there."
    let error = try #require(throws: ResolutionError.self) {
      try container.resolve(SystemRandomNumberGenerator.self)
    }
    #expect(error.suggestions.map(\.reason) == [.similarName])
    #expect(error.suggestions.map(\.key.service.name) == ["Swift.SystemRandomNumberGenerator"])
    #expect(error.action == action)
    let finding = try #require(container.check().errors.first)
    #expect(finding.kind == .missingDependency)
    #expect(
      finding.suggestions == ["Swift.SystemRandomNumberGenerator (registered at Shared/Random.swift:1)"])
    #expect(finding.action == action)
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
