import PlugboardKit
import Testing

@Suite struct ProfileTests {
  func petContainer(profile: String?) -> Container {
    let container = Container()
    container.activeProfile = profile
    container.register(Animal.self, file: "Pets/Live.swift", line: 1) { _ in Cat(name: "Real") }
      .inProfiles("live")
    container.register(Animal.self, file: "Pets/Mock.swift", line: 2) { _ in Cat(name: "Fixture") }
      .inProfiles("!live")
    return container
  }

  @Test func theActiveProfilePicksAmongSameKeyRegistrations() throws {
    #expect(try petContainer(profile: "live").resolve(Animal.self).name == "Real")
    #expect(try petContainer(profile: "mock").resolve(Animal.self).name == "Fixture")
    // Negation holds when no profile is active at all.
    #expect(try petContainer(profile: nil).resolve(Animal.self).name == "Fixture")
  }

  @Test func inactiveRegistrationsNeitherServeNorReplace() throws {
    let container = petContainer(profile: "live")
    #expect(container.duplicateRegistrations.isEmpty)
    #expect(container.inactiveRegistrations.map(\.site.fileID) == ["Pets/Mock.swift"])
  }

  @Test func changingTheProfileTakesEffectForLaterResolutions() throws {
    let container = petContainer(profile: "live")
    #expect(try container.resolve(Animal.self).name == "Real")
    container.activeProfile = "mock"
    #expect(try container.resolve(Animal.self).name == "Fixture")
  }

  @Test func childContainersInheritTheProfile() throws {
    let parent = petContainer(profile: "mock")
    let child = Container(parent: parent)
    #expect(child.activeProfile == "mock")
    #expect(try child.resolve(Animal.self).name == "Fixture")
  }

  @Test func aServiceOnlyInAnotherProfileSaysSo() throws {
    let container = Container()
    container.activeProfile = "live"
    container.register(Keychain.self, file: "AuthMock/MockAssembly.swift", line: 4) { _ in NoKeychain() }
      .inProfiles("mock")
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Keychain.self) }
    #expect(
      error.description == """
        error: cannot resolve PlugboardKitTests.Keychain

        What went wrong:
          No registration for PlugboardKitTests.Keychain.
          Keychain is registered only for profile 'mock' (at AuthMock/MockAssembly.swift:4); the active profile is 'live'.

        Chain:
          Keychain  (✗ not registered)

        Action:
          Activate a profile Keychain is registered for, or register it for the active profile too (inProfiles(...) on its registration).
        """)
  }

  @Test func aSelectionServesUnnamedRequestsWithANamedRegistration() throws {
    let container = Container()
    container.register(Animal.self) { _ in Cat(name: "Real") }
    container.register(Animal.self, name: "Mock") { _ in Cat(name: "Fixture") }
    container.select(name: "Mock", for: TypeIdentity(Animal.self), reason: "chosen by profile 'mock'")
    #expect(try container.resolve(Animal.self).name == "Fixture")
    #expect(try container.resolve(Animal.self, name: "Mock").name == "Fixture")
    #expect(
      container.selections.map(\.description) == [
        "PlugboardKitTests.Animal is served by its registration named \"Mock\" (chosen by profile 'mock')"
      ])
  }

  @Test func aSelectionOfAMissingNameIsExplained() throws {
    let container = Container()
    container.register(Animal.self) { _ in Cat(name: "Real") }
    container.select(name: "Mock", for: TypeIdentity(Animal.self), reason: "chosen by profile 'mock'")
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Animal.self) }
    #expect(
      error.notes == [
        "Unnamed requests for Animal are served by its registration named \"Mock\" "
          + "(chosen by profile 'mock'), and there is none."
      ])
    #expect(
      error.action
        == "Register the chosen name for Animal, or change the profile's choice in plugins.json.")
  }
}

@Suite struct AutoregistrationTests {
  @Test func initializerParametersAreResolvedAndDeclared() throws {
    let container = Container()
    container.register(Animal.self) { _ in Cat(name: "Mimi") }
    container.autoregister(PetOwner.self, initializer: PetOwner.init(pet:))
    #expect(try container.resolve(PetOwner.self).play() == "I'm playing with Mimi.")
    let owner = try #require(container.registrations.first { $0.key == ServiceKey(PetOwner.self) })
    #expect(owner.dependencies == [ServiceKey(Animal.self)])
  }

  @Test func declaredDependenciesAreRecorded() throws {
    let container = Container()
    container.register(Person.self) { r in try PetOwner(pet: r.resolve()) }
      .dependsOn(Animal.self)
      .optionallyDependsOn(Keychain.self)
    let info = try #require(container.registrations.first)
    #expect(info.dependencies == [ServiceKey(Animal.self)])
    #expect(info.optionalDependencies == [ServiceKey(Keychain.self)])
  }
}
