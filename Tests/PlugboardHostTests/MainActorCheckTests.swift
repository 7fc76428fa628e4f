import PlugboardKit
import Testing

@testable import PlugboardEngine

/// `plugboard check` on a synchronous registration, isolated to no actor,
/// that declares a dependency on a main-actor one, from a container
/// assembled in the test process: the analysis reads only declarations.
@Suite struct MainActorCheckTests {
  final class Session: Sendable {}
  @MainActor final class ProfileViewModel {
    init(session: Session) {}
  }
  final class Coordinator: Sendable {
    init(profile: ProfileViewModel) {}
  }
  struct App: Application {
    func run(arguments: [String]) async throws -> Int32 { 0 }
  }

  @Test func theReportShowsTheChainAndTheFix() throws {
    let deployment = try InProcessDeployment.make(plugin: "Profile") { container in
      container.register((any Application).self) { _ in App() }.dependsOn()
      container.register(Session.self) { _ in Session() }.dependsOn()
      container.register(
        ProfileViewModel.self, on: MainActor.self, file: "Profile/ProfileAssembly.swift", line: 7
      ) {
        r in ProfileViewModel(session: try r.resolve())
      }
      .dependsOn(Session.self)
      container.register(Coordinator.self, file: "Profile/ProfileAssembly.swift", line: 11) { r in
        Coordinator(profile: try r.resolve())
      }
      .dependsOn(ProfileViewModel.self)
    }
    let report = DeploymentChecker(deployment, environment: [:]).check()
    #expect(report.findings.map(\.kind) == [.nonisolatedDependencyOnMainActor])
    #expect(!report.healthy)
    let finding = try #require(report.findings.first)
    #expect(
      finding.lines.joined(separator: "\n") == """
        error: nonisolated dependency on a main-actor registration: Coordinator needs ProfileViewModel

        What went wrong:
          ProfileViewModel's factory is isolated to the main actor, so a synchronous resolve serves it \
        only there, but Coordinator's factory is synchronous and not isolated: wherever Coordinator is \
        resolved off the main actor, resolving ProfileViewModel fails.
          The dependency is declared at Profile/ProfileAssembly.swift:11 in plugin Profile.

        Chain:
          Coordinator  (registered at Profile/ProfileAssembly.swift:11 in plugin Profile  synchronous, \
        not isolated)
          → ProfileViewModel  (registered at Profile/ProfileAssembly.swift:7 in plugin Profile  ✗ main \
        actor only)

        Action:
          Register Coordinator on the main actor too (container.register(Coordinator.self, on: \
        MainActor.self) { r in … }), or take ProfileViewModel through an AsyncLazy or an async factory \
        (try await r.resolve(ProfileViewModel.self)), which resolve it on the main actor.
        """)
  }
}
