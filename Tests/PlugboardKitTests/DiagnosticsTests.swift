import PlugboardKit
import PlugboardTestSupport
import Testing

// Layered services for chains: ViewModel → UseCase → Repository → Keychain.
protocol AuthRepository {}
protocol Keychain {}
final class LoginUseCase {
  init(repository: any AuthRepository) {}
}
final class LoginViewModel {
  init(useCase: LoginUseCase) {}
}
final class KeychainAuthRepository: AuthRepository {
  init(keychain: any Keychain) {}
}
final class CycleA {
  init(_ b: CycleB) {}
}
final class CycleB {
  init(_ c: CycleC) {}
}
final class CycleC {
  init(_ a: CycleA) {}
}

@Suite struct DiagnosticsTests {
  func loginContainer() -> Container {
    let container = Container()
    container.attributing(to: "Login") {
      container.register(LoginViewModel.self, file: "Login/LoginAssembly.swift", line: 14) { r in
        try LoginViewModel(useCase: r.resolve())
      }
      container.register(LoginUseCase.self, file: "Login/LoginAssembly.swift", line: 20) { r in
        try LoginUseCase(repository: r.resolve())
      }
    }
    return container
  }

  @Test func notRegisteredShowsTheChainAndSuggestions() throws {
    let container = loginContainer()
    container.attributing(to: "AuthMock") {
      container.register(AuthRepository.self, name: "Mock", file: "AuthMock/MockAssembly.swift", line: 9) {
        _ in KeychainAuthRepository(keychain: NoKeychain())
      }
    }
    let error = try #require(throws: ResolutionError.self) { try container.resolve(LoginViewModel.self) }
    #expect(error.key == ServiceKey(AuthRepository.self))
    #expect(error.requested == ServiceKey(LoginViewModel.self))
    #expect(error.chain.count == 3)
    #expect(
      error.description == """
        error: cannot resolve PlugboardKitTests.LoginViewModel

        What went wrong:
          No registration for PlugboardKitTests.AuthRepository.

        Chain:
          LoginViewModel  (registered at Login/LoginAssembly.swift:14 in plugin Login)
          → LoginUseCase  (registered at Login/LoginAssembly.swift:20 in plugin Login)
          → AuthRepository  (✗ not registered)

        Did you mean:
          - PlugboardKitTests.AuthRepository named "Mock" (registered at AuthMock/MockAssembly.swift:9 in plugin AuthMock)

        Action:
          Register AuthRepository in an assembly that is loaded, for example container.register((any AuthRepository).self) { r in ... }, or request one of the registrations suggested above.
        """)
  }

  /// No "Did you mean" section, so the action points at none.
  @Test func withoutSuggestionsTheActionSuggestsNothing() throws {
    let error = try #require(throws: ResolutionError.self) { try Container().resolve(AuthRepository.self) }
    #expect(error.suggestions.isEmpty)
    #expect(
      error.description.split(separator: "\n").last.map(String.init)
        == "  Register AuthRepository in an assembly that is loaded, for example "
        + "container.register((any AuthRepository).self) { r in ... }.")
  }

  @Test func similarlyNamedTypesAreSuggested() throws {
    let container = Container()
    container.register(KeychainAuthRepository.self, file: "Auth/AuthAssembly.swift", line: 3) { _ in
      KeychainAuthRepository(keychain: NoKeychain())
    }
    let error = try #require(throws: ResolutionError.self) { try container.resolve(AuthRepository.self) }
    #expect(error.suggestions.map(\.reason) == [.similarName])
    #expect(error.suggestions.first?.key == ServiceKey(KeychainAuthRepository.self))
  }

  /// Among many registrations, suggestions keep their order (the same
  /// type under other names first, then similar names, registration order
  /// within each) and stop at eight; and a miss among 100,000 registrations
  /// costs a pass over them, not one per suggestion or per read. The three
  /// misses, their suggestions and a report take about 0.3 s of processor
  /// time in a debug build here (2 s before the suggestions were worked
  /// out once, in one pass, and type names judged by their bytes); the
  /// bound, in processor time so that a busy machine cannot trip it, is
  /// far above that and far below a step quadratic in the registrations.
  @Test(.timeLimit(.minutes(10))) func suggestionsAmongManyRegistrationsStayOrderedAndBounded() throws {
    let container = Container()
    for index in 0..<100_000 {
      if index % 2 == 0 {
        container.register(KeychainAuthRepository.self, name: "k\(index)", line: index) { _ in
          KeychainAuthRepository(keychain: NoKeychain())
        }
      } else {
        container.register(CycleC.self, name: "c\(index)") { r in try CycleC(r.resolve()) }
      }
    }
    container.register(LoginUseCase.self, name: "login", line: 7) { _ in
      LoginUseCase(repository: KeychainAuthRepository(keychain: NoKeychain()))
    }
    let (_, spent) = try ProcessorTime.measure {
      let similar = try #require(throws: ResolutionError.self) { try container.resolve(AuthRepository.self) }
      #expect(similar.suggestions.count == 8)
      #expect(similar.suggestions.allSatisfy { $0.reason == .similarName })
      #expect(similar.suggestions.map(\.key.name) == (0..<8).map { "k\($0 * 2)" })
      let sameType = try #require(throws: ResolutionError.self) { try container.resolve(LoginUseCase.self) }
      #expect(sameType.suggestions.map(\.reason) == [.otherName])
      #expect(sameType.suggestions.first?.site.line == 7)
      let unrelated = try #require(throws: ResolutionError.self) {
        try container.resolve(LoginViewModel.self)
      }
      #expect(unrelated.suggestions.isEmpty)
      #expect(unrelated.description.contains("Action:\n  Register LoginViewModel"))
    }
    #expect(spent < .seconds(20), "three misses and a report took \(spent) of processor time")
  }

  @Test func cycleOfThreeShowsTheWholePath() throws {
    let container = Container()
    container.register(CycleA.self, file: "Cycle.swift", line: 1) { r in try CycleA(r.resolve()) }
    container.register(CycleB.self, file: "Cycle.swift", line: 2) { r in try CycleB(r.resolve()) }
    container.register(CycleC.self, file: "Cycle.swift", line: 3) { r in try CycleC(r.resolve()) }
    let error = try #require(throws: ResolutionError.self) { try container.resolve(CycleA.self) }
    #expect(
      error.description == """
        error: cannot resolve PlugboardKitTests.CycleA

        What went wrong:
          Dependency cycle: CycleA → CycleB → CycleC → CycleA.

        Chain:
          CycleA  (registered at Cycle.swift:1)
          → CycleB  (registered at Cycle.swift:2)
          → CycleC  (registered at Cycle.swift:3)
          → CycleA  (registered at Cycle.swift:1  ✗ cycle closes here)

        Action:
          Break the cycle: let one of these services take its dependency as a Lazy<…> or Provider<…>, or set it after construction with initCompleted(resolving:), or move the part they share into a new service.
        """)
  }

  @Test func aServiceThatNeedsItselfIsACycle() throws {
    let container = Container()
    container.register(CycleA.self) { r in try r.resolve(CycleA.self) }.inObjectScope(.container)
    let error = try #require(throws: ResolutionError.self) { try container.resolve(CycleA.self) }
    guard case .cycle(let path) = error.kind else {
      Issue.record("expected a cycle, got \(error.kind)")
      return
    }
    #expect(path.map(\.shortDescription) == ["CycleA", "CycleA"])
  }

  @Test func cyclesAreCaughtThroughACapturedContainerToo() throws {
    let container = Container()
    container.register(CycleA.self) { _ in try CycleA(container.resolve()) }
    container.register(CycleB.self) { _ in try CycleB(container.resolve()) }
    container.register(CycleC.self) { _ in try CycleC(container.resolve()) }
    #expect(throws: ResolutionError.self) { try container.resolve(CycleB.self) }
  }

  @Test func theOptionalFormStillThrowsCycles() throws {
    let container = Container()
    container.register(CycleA.self) { r in try r.resolve(CycleA.self) }
    #expect(throws: ResolutionError.self) { try container.resolveIfRegistered(CycleA.self) }
  }

  @Test func factoryFailureWrapsTheErrorAtItsLink() throws {
    let container = loginContainer()
    container.register(AuthRepository.self, file: "Auth/AuthAssembly.swift", line: 30) { r in
      try KeychainAuthRepository(keychain: r.resolve())
    }
    container.register(Keychain.self, file: "Auth/AuthAssembly.swift", line: 40) { _ in
      throw Failure(reason: "keychain is locked")
    }
    let error = try #require(throws: ResolutionError.self) { try container.resolve(LoginViewModel.self) }
    #expect((error.underlyingError as? Failure)?.reason == "keychain is locked")
    #expect(
      error.description == """
        error: cannot resolve PlugboardKitTests.LoginViewModel

        What went wrong:
          The factory of PlugboardKitTests.Keychain threw: keychain is locked

        Chain:
          LoginViewModel  (registered at Login/LoginAssembly.swift:14 in plugin Login)
          → LoginUseCase  (registered at Login/LoginAssembly.swift:20 in plugin Login)
          → AuthRepository  (registered at Auth/AuthAssembly.swift:30)
          → Keychain  (registered at Auth/AuthAssembly.swift:40  ✗ factory threw)

        Action:
          Fix the factory registered at Auth/AuthAssembly.swift:40; the error above is what it threw.
        """)
  }

  @Test func theOptionalFormReturnsNilOnlyWhenNothingIsRegistered() throws {
    let container = Container()
    container.register(Keychain.self) { _ in throw Failure(reason: "locked") }
    #expect(try container.resolveIfRegistered(AuthRepository.self) == nil)
    #expect(throws: ResolutionError.self) { try container.resolveIfRegistered(Keychain.self) }
  }

  @Test func tooDeepIsReportedWithTheLimit() throws {
    let container = Container(maximumDepth: 40)
    container.register(Int.self) { r, n in try r.resolve(Int.self, argument: n + 1) }
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Int.self, argument: 0) }
    #expect(
      error.summary
        == "The dependency chain grew deeper than 40 resolutions while resolving "
        + "Swift.Int with arguments (Swift.Int).")
    #expect(error.chain.count == 40)
    // Long chains are elided in the middle.
    #expect(error.description.contains("  … 24 more links …"))
  }
}

struct NoKeychain: Keychain {}

/// A registration name comes from a plugin and is printed: its line breaks,
/// quotes and control characters are escaped, so a name cannot forge a
/// line of a report.
@Suite struct RegistrationNameEscapingTests {
  @Test func aNameCannotStartALineOfItsOwn() {
    let key = ServiceKey(String.self, name: "Evil\"\n\u{1B}[31mplugboard: check: all good")
    #expect(key.description == #"Swift.String named "Evil\"\n\u{1B}[31mplugboard: check: all good""#)
    #expect(!key.shortDescription.contains("\n"))
    #expect(ServiceKey(String.self, name: "Mock").shortDescription == #"String named "Mock""#)
  }
}
