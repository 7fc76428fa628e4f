import PlugboardKit
import Testing

@Suite struct ChildContainerTests {
  @Test func childSeesParentRegistrations() throws {
    let parent = Container()
    parent.register(Animal.self) { _ in Cat(name: "Mimi") }
    let child = Container(parent: parent)
    #expect(try child.resolve(Animal.self).name == "Mimi")
  }

  @Test func childOverridesWithoutTouchingTheParent() throws {
    let parent = Container()
    parent.register(Animal.self) { _ in Cat(name: "Mimi") }
    parent.register(Person.self) { r in try PetOwner(pet: r.resolve()) }
    let child = Container(parent: parent)
    child.register(Animal.self) { _ in Dog(name: "Mock dog") }

    // Transient dependencies of a parent registration resolve in the child.
    #expect(try child.resolve(Person.self).play() == "I'm playing with Mock dog.")
    #expect(try parent.resolve(Person.self).play() == "I'm playing with Mimi.")
    #expect(parent.registrations.count == 2)
  }

  @Test func parentSingletonsDoNotCaptureChildOverrides() throws {
    let parent = Container()
    parent.register(Animal.self) { _ in Cat(name: "Mimi") }
    parent.register(Person.self) { r in try PetOwner(pet: r.resolve()) }.inObjectScope(.container)
    let child = Container(parent: parent)
    child.register(Animal.self) { _ in Dog(name: "Mock dog") }

    let fromChild = try child.resolve(Person.self)
    #expect(fromChild.play() == "I'm playing with Mimi.")
    #expect((fromChild as AnyObject) === (try parent.resolve(Person.self) as AnyObject))
  }

  @Test func childAssemblerOverridesForTests() throws {
    struct Live: Assembly {
      func assemble(container: Container) {
        container.register(Animal.self) { _ in Cat(name: "Mimi") }
      }
    }
    struct Mocks: Assembly {
      func assemble(container: Container) {
        container.register(Animal.self) { _ in Cat(name: "Fixture") }
      }
    }
    let app = try Assembler([Live()])
    let test = try Assembler([Mocks()], parent: app)
    #expect(try test.resolver.resolve(Animal.self).name == "Fixture")
    #expect(try app.resolver.resolve(Animal.self).name == "Mimi")
  }
}
