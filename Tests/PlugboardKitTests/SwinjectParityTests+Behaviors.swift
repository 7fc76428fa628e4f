import PlugboardKit
import Synchronization
import Testing

// Swinject's `Behavior`: told of each registration, with the entry to
// configure it further.

extension SwinjectParityTests {
  /// Records what it is told, as Swinject's `BehaviorFake`.
  final class BehaviorFake: Behavior, Sendable {
    let told = Mutex<[String]>([])

    func container<Type, Service>(
      _ container: Container, didRegisterType type: Type.Type,
      toService entry: ServiceEntry<Service>, withName name: String?
    ) {
      let line = "\(type) as \(Service.self)" + (name.map { " named \($0)" } ?? "")
      told.withLock { $0.append(line) }
    }
  }

  /// Makes every registration a singleton, as a behavior configuring entries.
  struct Singletons: Behavior {
    func container<Type, Service>(
      _ container: Container, didRegisterType type: Type.Type,
      toService entry: ServiceEntry<Service>, withName name: String?
    ) {
      entry.inObjectScope(.container)
    }
  }

  @Test func aBehaviorIsToldOfEachRegistration() throws {
    let fake = BehaviorFake()
    let container = Container(behaviors: [fake])
    container.register(Dog.self) { _ in Dog(name: "Hachi") }
    container.register((any Animal).self, name: "Mimi") { _, age in Cat(name: "Mimi", age: age) }
    container.autoregister((any Person).self, initializer: PetOwner.init)
    container.register(Cat.self) { _ in Cat(name: "Tama") }.implements((any Animal).self)
    #expect(
      fake.told.withLock { $0 } == [
        "Dog as Dog", "Animal as Animal named Mimi", "Person as Person", "Cat as Cat", "Animal as Animal",
      ])
  }

  @Test func aBehaviorAddedLaterIsToldOfLaterRegistrationsOnly() throws {
    let fake = BehaviorFake()
    let container = Container()
    container.register(Dog.self) { _ in Dog(name: "Hachi") }
    container.addBehavior(fake)
    container.register(Cat.self) { _ in Cat(name: "Mimi") }
    Container(parent: container).register(Cat.self) { _ in Cat(name: "Tama") }
    #expect(fake.told.withLock { $0 } == ["Cat as Cat"])
  }

  @Test func aBehaviorConfiguresTheEntry() throws {
    let container = Container(behaviors: [Singletons()])
    container.register(Dog.self) { _ in Dog(name: "Hachi") }
    #expect(try container.resolve(Dog.self) === container.resolve(Dog.self))
  }

  struct DogAssembly: Assembly {
    func assemble(container: Container) {
      container.register(Dog.self) { _ in Dog(name: "Hachi") }
    }
  }

  @Test func assemblersTakeBehaviors() throws {
    let fake = BehaviorFake()
    let app = try Assembler([DogAssembly()], defaultObjectScope: .graph, behaviors: [fake])
    #expect(fake.told.withLock { $0 } == ["Dog as Dog"])

    let childFake = BehaviorFake()
    let child = Assembler(parentAssembler: app, defaultObjectScope: .container, behaviors: [childFake])
    #expect(child.container.parent === app.container)
    #expect(child.container.defaultObjectScope == .container)
    try child.apply(assembly: DogAssembly())
    _ = try Assembler([DogAssembly()], parent: app, behaviors: [childFake])
    #expect(childFake.told.withLock { $0 } == ["Dog as Dog", "Dog as Dog"])
    #expect(fake.told.withLock { $0 }.count == 1)
    #expect(Assembler(parentAssembler: nil).container.parent == nil)
  }
}
