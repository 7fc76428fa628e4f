import PlugboardAnalysis
import Testing

@testable import PlugboardKit

/// `check()` on registrations that depend on a main-actor one
/// (`register(_:on: MainActor.self)`): a synchronous factory that is not
/// isolated resolves it from wherever it is itself resolved.
@Suite struct MainActorValidationTests {
  final class Session: Sendable {}
  @MainActor final class SettingsViewModel {
    init(session: Session) {}
  }
  final class Coordinator: Sendable {
    init(settings: SettingsViewModel) {}
    init() {}
  }
  @MainActor final class Screen {
    init(settings: SettingsViewModel) {}
  }

  func container() -> Container {
    let container = Container()
    container.register(Session.self) { _ in Session() }.dependsOn()
    container.attributing(to: "Settings") {
      container.register(
        SettingsViewModel.self, on: MainActor.self, file: "Settings/SettingsAssembly.swift", line: 9
      ) { r in
        SettingsViewModel(session: try r.resolve())
      }
      .dependsOn(Session.self)
    }
    return container
  }

  @Test func aNonisolatedSynchronousDependentIsAnError() throws {
    let container = container()
    container.attributing(to: "Settings") {
      container.register(Coordinator.self, file: "Settings/Coordinator.swift", line: 4) { r in
        Coordinator(settings: try r.resolve())
      }
      .dependsOn(SettingsViewModel.self)
    }
    let report = container.check()
    #expect(
      report.findings.map(\.title) == [
        "nonisolated dependency on a main-actor registration: Coordinator needs SettingsViewModel"
      ])
    let finding = try #require(report.findings.first)
    #expect(finding.severity == .error)
    #expect(finding.kind == .nonisolatedDependencyOnMainActor)
    #expect(
      finding.explanation == [
        "SettingsViewModel's factory is isolated to the main actor, so a synchronous resolve serves it "
          + "only there, but Coordinator's factory is synchronous and not isolated: wherever Coordinator "
          + "is resolved off the main actor, resolving SettingsViewModel fails.",
        "The dependency is declared at Settings/Coordinator.swift:4 in plugin Settings.",
      ])
    #expect(finding.chain.map(\.display) == ["Coordinator", "SettingsViewModel"])
    #expect(finding.chain.map(\.marker) == ["synchronous, not isolated", "✗ main actor only"])
    #expect(
      finding.action
        == "Register Coordinator on the main actor too (container.register(Coordinator.self, on: "
        + "MainActor.self) { r in … }), or take SettingsViewModel through an AsyncLazy or an async "
        + "factory (try await r.resolve(SettingsViewModel.self)), which resolve it on the main actor.")
    #expect(throws: ValidationError.self) { try container.validate() }
  }

  /// What `autoregister` learns from an initializer is a declared
  /// dependency like any other.
  @Test func anAutoregisteredDependentIsChecked() {
    let container = container()
    container.autoregister(Coordinator.self, initializer: Coordinator.init(settings:))
    #expect(
      container.check().findings.map(\.kind) == [.nonisolatedDependencyOnMainActor])
  }

  /// A `Lazy` or `Provider` is read synchronously, where the dependent
  /// runs; an `AsyncLazy` is awaited, which hops to the main actor.
  @Test func aDeferredDependencyIsJudgedByHowItIsRead() throws {
    let container = container()
    container.register(Coordinator.self) { _ in Coordinator() }
      .dependsOn(Lazy<SettingsViewModel>.self)
    container.register(Coordinator.self, name: "provided") { _ in Coordinator() }
      .dependsOn(Provider<SettingsViewModel>.self)
    container.register(Coordinator.self, name: "awaited") { _ in Coordinator() }
      .dependsOn(AsyncLazy<SettingsViewModel>.self)
    let findings = container.check().findings
    #expect(
      findings.map(\.title) == [
        "nonisolated dependency on a main-actor registration: Coordinator needs SettingsViewModel",
        "nonisolated dependency on a main-actor registration: Coordinator named \"provided\" needs "
          + "SettingsViewModel",
      ])
    #expect(
      findings.first?.explanation.first
        == "SettingsViewModel's factory is isolated to the main actor, so a synchronous resolve serves it "
        + "only there, but Coordinator reads it through a Lazy<SettingsViewModel>, synchronously and not "
        + "isolated: wherever Coordinator reads it off the main actor, resolving SettingsViewModel fails.")
  }

  @Test func aMainActorOrAsyncDependentIsNoFinding() throws {
    let container = container()
    container.register(Screen.self, on: MainActor.self) { r in Screen(settings: try r.resolve()) }
      .dependsOn(SettingsViewModel.self)
    container.register(Coordinator.self) { r async throws in
      Coordinator(settings: try await r.resolve())
    }
    .dependsOn(SettingsViewModel.self)
    #expect(container.check().findings.map(\.title) == [])
    try container.validate()
  }
}
