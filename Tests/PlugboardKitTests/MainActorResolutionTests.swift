import PlugboardKit
import Testing

/// Registrations isolated to the main actor, resolved from it.
@Suite struct MainActorResolutionTests {
  final class Session: Sendable {}
  /// Not Sendable: it may live on the main actor only.
  final class ProfileViewModel {
    let session: Session
    var title = ""
    init(session: Session) { self.session = session }
  }
  @MainActor final class SettingsViewModel {
    var isDark = false
  }

  func container() -> Container {
    let container = Container()
    container.register(Session.self) { _ in Session() }.inObjectScope(.container)
    container.register(ProfileViewModel.self) { @MainActor r async throws in
      MainActor.assertIsolated()
      return ProfileViewModel(session: try await r.resolve())
    }
    container.register(SettingsViewModel.self) { @MainActor _ async in SettingsViewModel() }
      .inObjectScope(.container)
    return container
  }

  @MainActor @Test func aViewModelIsResolvedFromTheMainActor() async throws {
    let container = container()
    let model = try await container.asyncResolver.resolve(ProfileViewModel.self)
    model.title = "Profile"
    #expect(model.session === (try container.resolve(Session.self)))
    let settings: SettingsViewModel = try await container.asyncResolver.resolve()
    settings.isDark = true
    #expect(settings === (try await container.asyncResolver.resolve(SettingsViewModel.self)))
  }

  @Test func theRegistrationTellsItsActor() {
    #expect(
      container().registrations.map { "\($0.isAsync) \($0.isolation ?? "-")" }
        == ["false -", "true MainActor", "true MainActor"])
  }
}
