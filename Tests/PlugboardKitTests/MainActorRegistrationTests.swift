import Synchronization
import Testing

@testable import PlugboardKit

/// Synchronous factories isolated to the main actor
/// (`register(_:on: MainActor.self)`): resolved without `await` from
/// main-actor code, refused synchronously from anywhere else, awaited
/// from async code.
@Suite struct MainActorRegistrationTests {
  final class Session: Sendable {}
  @MainActor final class SettingsViewModel {
    let session: Session
    var isDark = false
    init(session: Session) { self.session = session }
  }
  /// Not Sendable: made on the main actor, it may only live there.
  final class Draft {
    var text = ""
  }
  protocol Settings: AnyObject, Sendable {}
  /// Isolated to no actor: it works wherever it is resolved, as long as
  /// what it resolves does.
  final class Coordinator: Sendable {
    let settings: SettingsViewModel
    init(settings: SettingsViewModel) { self.settings = settings }
  }
  final class Counter: Sendable {
    let count = Atomic(0)
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
    var value: Int { count.load(ordering: .relaxed) }
  }

  func container(counting made: Counter, in scope: ObjectScope = .transient) -> Container {
    let container = Container()
    container.register(Session.self) { _ in Session() }.inObjectScope(.container)
    container.attributing(to: "Settings") {
      container.register(
        SettingsViewModel.self, on: MainActor.self, file: "Settings/SettingsAssembly.swift", line: 9
      ) { r in
        _ = made.next()
        return SettingsViewModel(session: try r.resolve())
      }
      .inObjectScope(scope)
    }
    return container
  }

  /// What `body` throws, run in a task that is not isolated to the main
  /// actor.
  func failureOffTheMainActor(_ body: @escaping @Sendable () async throws -> Void) async throws
    -> ResolutionError
  {
    let failure = await Task.detached { () -> (any Error)? in
      do {
        try await body()
        return nil
      } catch {
        return error
      }
    }.value
    return try #require(failure as? ResolutionError)
  }

  /// The error of a synchronous resolve from off the main actor.
  func resolvedOffTheMainActor<Service: Sendable>(
    _ serviceType: Service.Type = SettingsViewModel.self, from container: Container
  ) async throws -> ResolutionError {
    try await failureOffTheMainActor { _ = try container.resolve(serviceType) }
  }

  @MainActor @Test func mainActorCodeResolvesItWithoutAwait() throws {
    let made = Counter()
    let container = container(counting: made)
    let model = try container.resolve(SettingsViewModel.self)
    model.isDark = true
    #expect(model.session === (try container.resolve(Session.self)))
    #expect(try container.resolve(SettingsViewModel.self) !== model)
    #expect(made.value == 2)
    container.register(Draft.self, on: MainActor.self) { _ in Draft() }
    let draft = try container.resolve(Draft.self)
    draft.text = "kept on the main actor"
  }

  @MainActor @Test func aContainerInstanceIsMadeOnceAndAgainAfterAReset() throws {
    let made = Counter()
    let container = container(counting: made, in: .container)
    let first = try container.resolve(SettingsViewModel.self)
    #expect(try container.resolve(SettingsViewModel.self) === first)
    #expect(made.value == 1)
    container.resetObjectScope(.container)
    #expect(try container.resolve(SettingsViewModel.self) !== first)
    #expect(made.value == 2)
  }

  @Test func offTheMainActorASynchronousResolveThrowsWithoutRunningTheFactory() async throws {
    let made = Counter()
    let container = container(counting: made)
    let error = try await resolvedOffTheMainActor(from: container)
    #expect(made.value == 0)
    #expect(
      error.description == """
        error: cannot resolve PlugboardKitTests.MainActorRegistrationTests.SettingsViewModel

        What went wrong:
          PlugboardKitTests.MainActorRegistrationTests.SettingsViewModel is isolated to the main actor, \
        and was resolved synchronously from off the main actor.

        Chain:
          SettingsViewModel  (registered at Settings/SettingsAssembly.swift:9 in plugin Settings  \
        ✗ main actor only, resolved off it)

        Action:
          Resolve SettingsViewModel (registered at Settings/SettingsAssembly.swift:9 in plugin Settings) \
        from @MainActor code, where try container.resolve(SettingsViewModel.self) needs no await, or \
        from async code with try await resolver.resolve(SettingsViewModel.self), which runs its factory \
        on the main actor; a synchronous factory that needs it must be registered on: MainActor.self too.
        """)
  }

  /// A kept instance is refused off the main actor as well, so that the
  /// answer does not depend on whether the main actor asked first.
  @Test(arguments: [ObjectScope.container, .weak])
  func aKeptInstanceIsNotHandedOffTheMainActor(scope: ObjectScope) async throws {
    let made = Counter()
    let container = container(counting: made, in: scope)
    let kept = try await MainActor.run { try container.resolve(SettingsViewModel.self) }
    let error = try await resolvedOffTheMainActor(from: container)
    #expect(error.kind.isMainActorIsolated)
    let again = try await MainActor.run { try container.resolve(SettingsViewModel.self) }
    #expect(again === kept)
    #expect(made.value == 1)
  }

  @Test func asyncCodeAwaitsItOnTheMainActor() async throws {
    let made = Counter()
    let container = container(counting: made, in: .container)
    let awaited = try await Task.detached {
      try await container.asyncResolver.resolve(SettingsViewModel.self)
    }.value
    let resolved = try await MainActor.run { try container.resolve(SettingsViewModel.self) }
    #expect(resolved === awaited)
    #expect(made.value == 1)
  }

  /// A dependent isolated to no actor works only where its dependency
  /// does: on the main actor. Awaiting it does not help, since its own
  /// factory is synchronous and runs where it is resolved (the reason
  /// `check` reports it).
  @Test func aDependentResolvedOffTheMainActorFailsWithTheChain() async throws {
    let container = container(counting: Counter())
    container.register(Coordinator.self) { r in Coordinator(settings: try r.resolve()) }
    let error = try await resolvedOffTheMainActor(Coordinator.self, from: container)
    #expect(error.kind.isMainActorIsolated)
    #expect(error.chain.map(\.key.shortDescription) == ["Coordinator", "SettingsViewModel"])
    let awaited = try await failureOffTheMainActor {
      _ = try await container.asyncResolver.resolve(Coordinator.self)
    }
    #expect(awaited.kind.isMainActorIsolated)
    _ = try await MainActor.run { try container.resolve(Coordinator.self) }
  }

  @MainActor @Test func aMainActorCallerAwaitsOneWithoutLeavingTheActor() async throws {
    let container = Container()
    container.register(Draft.self, on: MainActor.self) { _ in Draft() }.inObjectScope(.container)
    let draft = try await container.asyncResolver.resolve(Draft.self)
    draft.text = "edited"
    #expect(try container.resolve(Draft.self) === draft)
  }

  @Test func aScopedInstanceIsMadeOncePerScopeAndRefusedOffTheMainActor() async throws {
    let made = Counter()
    let scope = container(counting: made, in: .scoped).makeScope()
    let resolver = scope.resolver
    let first = try await MainActor.run { try resolver.resolve(SettingsViewModel.self) }
    let again = try await MainActor.run { try resolver.resolve(SettingsViewModel.self) }
    #expect(first === again)
    let error = try await resolvedOffTheMainActor(from: resolver)
    #expect(error.kind.isMainActorIsolated)
    #expect(made.value == 1)
    try await scope.end()
  }

  @Test func aForwardedTypeIsIsolatedToo() async throws {
    let container = Container()
    container.register(Session.self) { _ in Session() }
    container.register(SettingsViewModel.self, on: MainActor.self) { r in
      SettingsViewModel(session: try r.resolve())
    }
    .inObjectScope(.container).implements(Settings.self)
    #expect(container.registrations.map { $0.isolation ?? "-" } == ["-", "MainActor", "MainActor"])
    let error = try await resolvedOffTheMainActor((any Settings).self, from: container)
    #expect(error.kind.isMainActorIsolated)
    let awaited = try await Task.detached { try await container.asyncResolver.resolve(Settings.self) }.value
    let resolved = try await MainActor.run { try container.resolve(SettingsViewModel.self) }
    #expect(resolved === awaited)
  }

  @Test func theRegistrationTellsItsActor() {
    let registration = container(counting: Counter()).registrations[1]
    #expect(!registration.isAsync)
    #expect(registration.isolation == "MainActor")
    #expect(
      registration.description
        == "PlugboardKitTests.MainActorRegistrationTests.SettingsViewModel [transient, MainActor] at "
        + "Settings/SettingsAssembly.swift:9 in plugin Settings")
  }
}

extension MainActorRegistrationTests.SettingsViewModel: MainActorRegistrationTests.Settings {}

extension ResolutionError.Kind {
  fileprivate var isMainActorIsolated: Bool {
    if case .mainActorIsolated = self { return true }
    return false
  }
}
