import PlugboardKit
import Testing

/// Swinject spellings every migration hits: `removeAll()`, `Container { c in … }`,
/// `synchronize()` and the assembler's default scope.
@Suite struct MigrationSpellingTests {
  @Test func removeAllForgetsEveryRegistrationHere() throws {
    let container = Container()
    container.register(Shared.self) { _ in Shared() }
    container.register(Animal.self, name: "cat") { _ in Cat(name: "Mimi") }
    _ = try container.resolve(Shared.self)

    container.removeAll()

    #expect(container.registrations.isEmpty)
    #expect(container.duplicateRegistrations.isEmpty)
    #expect(!container.hasRegistration(Shared.self))
    #expect(try container.resolveIfRegistered((any Animal).self, name: "cat") == nil)
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Shared.self) }
    #expect(error.description.contains("No registration for PlugboardKitTests.Shared."))
  }

  @Test func removeAllThenRegisterServesTheNewRegistration() throws {
    let container = Container()
    container.register(Animal.self) { _ in Cat(name: "Mimi") }
    container.register(Animal.self) { _ in Cat(name: "Mimi again") }
    #expect(try container.resolve(Animal.self).name == "Mimi again")
    container.removeAll()
    container.register(Animal.self) { _ in Dog(name: "Hachi") }
    #expect(try container.resolve(Animal.self).name == "Hachi")
    #expect(container.registrations.count == 1)
    #expect(container.duplicateRegistrations.isEmpty)
  }

  @Test func removeAllKeepsTheParentsRegistrations() throws {
    let parent = Container()
    parent.register(Animal.self) { _ in Cat(name: "Mimi") }
    let child = Container(parent: parent)
    child.register(Animal.self) { _ in Dog(name: "Hachi") }
    #expect(try child.resolve(Animal.self).name == "Hachi")
    child.removeAll()
    #expect(try child.resolve(Animal.self).name == "Mimi")
  }

  @Test func containerTakesARegisteringClosure() throws {
    let container = Container { c in
      c.register(Animal.self) { _ in Cat(name: "Mimi") }
      c.register(Person.self) { r in try PetOwner(pet: r.resolve()) }
    }
    #expect(try container.resolve(Person.self).play() == "I'm playing with Mimi.")
    #expect(container.defaultObjectScope == .graph)
    let singletons = Container(defaultObjectScope: .container) { c in
      c.register(Shared.self) { _ in Shared() }
    }
    #expect(try singletons.resolve(Shared.self) === singletons.resolve(Shared.self))
  }

  @Test func registeringClosureErrorsPropagate() {
    #expect(throws: Failure.self) { _ = try Container { _ in throw Failure(reason: "boom") } }
  }

  @Test func synchronizeReturnsTheSameContainer() throws {
    let container = Container()
    container.register(Shared.self) { _ in Shared() }.inObjectScope(.container)
    let synchronized = container.synchronize()
    #expect(synchronized === container)
    #expect(try synchronized.resolve(Shared.self) === container.resolve(Shared.self))
  }

  @Test func assemblerTakesADefaultScope() throws {
    let assembler = try Assembler([SharedAssembly()], defaultObjectScope: .container)
    #expect(assembler.container.defaultObjectScope == .container)
    #expect(try assembler.resolver.resolve(Shared.self) === assembler.resolver.resolve(Shared.self))
  }

  @Test func childAssemblerInheritsTheParentsScopeUnlessToldOtherwise() throws {
    let parent = try Assembler(defaultObjectScope: .container)
    let inheriting = try Assembler([SharedAssembly()], parent: parent)
    #expect(inheriting.container.defaultObjectScope == .container)
    let likeSwinject = try Assembler([SharedAssembly()], parent: parent, defaultObjectScope: .graph)
    #expect(likeSwinject.container.defaultObjectScope == .graph)
    #expect(try likeSwinject.resolver.resolve(Shared.self) !== likeSwinject.resolver.resolve(Shared.self))
  }
}

private struct SharedAssembly: Assembly {
  func assemble(container: Container) {
    container.register(Shared.self) { _ in Shared() }
  }
}
