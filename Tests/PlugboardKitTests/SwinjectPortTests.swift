import PlugboardKit
import Testing

/// The examples of Swinject's README and documentation, ported by changing the
/// import and adding `try`.
@Suite struct SwinjectPortTests {
  @Test func basicUsage() throws {
    let container = Container()
    container.register(Animal.self) { _ in Cat(name: "Mimi") }
    container.register(Person.self) { r in try PetOwner(pet: r.resolve(Animal.self)) }

    let person = try container.resolve(Person.self)
    #expect(person.play() == "I'm playing with Mimi.")
  }

  @Test func namedRegistrations() throws {
    let container = Container()
    container.register(Animal.self, name: "cat") { _ in Cat(name: "Mimi") }
    container.register(Animal.self, name: "dog") { _ in Dog(name: "Hachi") }

    #expect(try container.resolve(Animal.self, name: "cat").name == "Mimi")
    #expect(try container.resolve(Animal.self, name: "dog").name == "Hachi")
  }

  @Test func typeInferredResolve() throws {
    let container = Container()
    container.register(Animal.self) { _ in Cat(name: "Mimi") }
    let animal: any Animal = try container.resolve()
    let named: (any Animal)? = try container.resolveIfRegistered(Animal.self, name: "nobody")
    #expect(animal.name == "Mimi")
    #expect(named == nil)
  }

  @Test func layeredAssemblies() throws {
    // The Data / Domain / Feature split of clean-architecture apps.
    struct DataAssembly: Assembly {
      func assemble(container: Container) {
        container.register(Animal.self) { _ in Cat(name: "Mimi") }.inObjectScope(.container)
      }
    }
    struct FeatureAssembly: Assembly {
      func assemble(container: Container) {
        container.register(Person.self) { r in try PetOwner(pet: r.resolve()) }
      }
    }
    let assembler = try Assembler([DataAssembly(), FeatureAssembly()])
    let person = try assembler.resolver.resolve(Person.self)
    #expect(person.play() == "I'm playing with Mimi.")
  }

  @Test func compositionRootWithDefaultScope() throws {
    let container = Container(defaultObjectScope: .container)
    container.register(Animal.self) { _ in Cat(name: "Mimi") }
    #expect(container.defaultObjectScope == .container)
    #expect(try container.resolve(Animal.self) === container.resolve(Animal.self))
  }
}
