import PlugboardKit
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

protocol ProfiledClock: Sendable {}
struct SystemProfiledClock: ProfiledClock {}

/// A profile's `services` choices that cannot do what they say are
/// problems at their place in the manifest, found when the deployment
/// comes up rather than as "nothing registers" when the service is asked for.
@Suite struct ServiceSelectorTests {
  private static let manifest = "/srv/app/plugins.json"

  private func container(profile: String) -> Container {
    let container = Container()
    container.activeProfile = profile
    container.register((any ProfiledClock).self, file: "Clocks/Real.swift", line: 3) { _ in
      SystemProfiledClock()
    }
    container.register((any ProfiledClock).self, name: "Fixed", file: "Clocks/Fixed.swift", line: 7) { _ in
      SystemProfiledClock()
    }
    .inProfiles("test")
    return container
  }

  private func apply(_ choices: [(String, String)], in profile: String, to container: Container) -> [String] {
    let place = ManifestPath.root.key("profiles").key(profile).key("services")
    let declaration = ProfileDeclaration(
      name: profile, services: choices.map { ServiceChoice(type: $0.0, name: $0.1, path: place.key($0.0)) })
    return ServiceSelector.apply(declaration, to: container, manifest: Self.manifest).map(\.description)
  }

  @Test func aChoiceOfARegistrationInactiveInTheProfileIsAProblemAtItsPlace() {
    let container = container(profile: "mock")
    #expect(
      apply([("ProfiledClock", "Fixed")], in: "mock", to: container) == [
        "apply profile: \(Self.manifest): profiles.mock.services.ProfiledClock: "
          + "PlugboardHostTests.ProfiledClock's registration named \"Fixed\" at Clocks/Fixed.swift:7 does not take part "
          + "in profile 'mock' (it serves 'test'); choose a registration of this profile, or tag that one for it"
      ])
    #expect(container.selections.isEmpty)
  }

  @Test func aChoiceOfARegistrationOfTheProfileIsMade() {
    let container = container(profile: "test")
    #expect(apply([("ProfiledClock", "Fixed")], in: "test", to: container) == [])
    #expect(container.selections.map(\.name) == ["Fixed"])
  }

  @Test func oneServiceChosenUnderTwoSpellingsIsRefused() {
    let container = container(profile: "test")
    #expect(
      apply(
        [("ProfiledClock", "Fixed"), ("PlugboardHostTests.ProfiledClock", "Fixed")], in: "test", to: container
      ) == [
        "apply profile: \(Self.manifest): profiles.test.services.PlugboardHostTests.ProfiledClock: "
          + "PlugboardHostTests.ProfiledClock is already chosen by profiles.test.services.ProfiledClock; choose each service once"
      ])
  }

  /// A profile may make as many choices as its manifest holds: past the
  /// first 100 problems, the rest are counted in one line, with no
  /// did-you-mean built for them.
  @Test func manyProblemsArePastTheLimitCountedInOneLine() {
    let container = container(profile: "mock")
    let problems = apply((0..<1_000).map { ("ProfiledClok\($0)", "Fixed") }, in: "mock", to: container)
    #expect(problems.count == 101)
    #expect(
      problems.first
        == "apply profile: \(Self.manifest): profiles.mock.services.ProfiledClok0: no plugin registers a service "
        + "type called \"ProfiledClok0\"; did you mean \"ProfiledClock\"?")
    #expect(
      problems.last
        == "apply profile: \(Self.manifest): profiles.mock.services: 900 more problems not listed (plugboard "
        + "lists the first 100)")
  }
}

/// The same through `check` on the sample deployment.
@Suite(.blocking) struct ServiceChoiceCheckTests {
  @Test func checkNamesTheChoiceThatSpellsAServiceTwice() throws {
    let folder = try TemporaryDirectory()
    let manifest = try SampleManifest.write(
      in: folder, mockServices: #"{ "APIClient": "Mock", "AppContracts.APIClient": "Mock" }"#)
    let result = try Subprocess.plugboard(["check", "--manifest", manifest])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "  apply profile: \(manifest): profiles.mock.services.AppContracts.APIClient: AppContracts.APIClient is "
          + "already chosen by profiles.mock.services.APIClient; choose each service once\n"))
    #expect(result.stdout.contains("'live' healthy"))
  }
}
