import PlugboardCompat
import PlugboardKit
import Testing

// SwinjectAutoregistration's argument forms and `~>` operators, with `try`
// where it force-unwraps.

extension SwinjectParityTests {
  final class Walker {
    let dog: Dog
    let owner: any Person
    let minutes: Int
    init(owner: any Person, dog: Dog, minutes: Int) {
      self.owner = owner
      self.dog = dog
      self.minutes = minutes
    }
  }

  static func withOwner() -> Container {
    let container = Container()
    container.register((any Animal).self) { _ in Cat(name: "Mimi") }
    container.autoregister((any Person).self, initializer: PetOwner.init)
    return container
  }

  @Test func autoregisteringWithAnArgumentFillsItsParameter() throws {
    let container = Self.withOwner()
    container.autoregister(Dog.self, argument: String.self, initializer: Dog.init)
    #expect(try container.resolve(Dog.self, argument: "Hachi").name == "Hachi")

    container.autoregister(PetOwner.self, argument: (any Animal).self, initializer: PetOwner.init)
    #expect(
      try container.resolve(PetOwner.self, argument: Dog(name: "Bo") as any Animal).play()
        == "I'm playing with Bo.")
  }

  @Test func autoregisteringWithArgumentsResolvesTheOtherParameters() throws {
    let container = Self.withOwner()
    container.autoregister(Walker.self, arguments: Dog.self, Int.self, initializer: Walker.init)
    let walker = try container.resolve(Walker.self, arguments: Dog(name: "Hachi"), 30)
    #expect(walker.dog.name == "Hachi" && walker.minutes == 30)
    #expect(walker.owner.play() == "I'm playing with Mimi.")
    let declared = container.registrations.first { $0.key.service.shortName == "Walker" }?.dependencies
    #expect(declared?.map(\.shortDescription) == ["Person"])
  }

  @Test func twoArgumentsOfOneTypeFillItsParametersInOrder() throws {
    let container = Container()
    container.autoregister(Cat.self, arguments: String.self, Int.self, initializer: Cat.init)
    let cat = try container.resolve(Cat.self, arguments: "Mimi", 3)
    #expect(cat.name == "Mimi" && cat.age == 3)
  }

  @Test func theResolveOperatorsResolveAsResolveDoes() throws {
    let container = Container()
    container.register(Dog.self) { _ in Dog(name: "Hachi") }
    container.register(Dog.self, name: "guest") { _ in Dog(name: "Bo") }
    container.register(Cat.self) { _, name in Cat(name: name) }
    container.register(Cat.self) { _, name, age in Cat(name: name, age: age) }
    container.register((any Person).self) { r in PetOwner(pet: try r ~> Dog.self) }
    container.register(PetOwner.self) { r in PetOwner(pet: try r~> as Dog) }

    #expect(try (container ~> Dog.self).name == "Hachi")
    #expect(try (container ~> (Dog.self, name: "guest")).name == "Bo")
    #expect(try (container ~> (Cat.self, argument: "Mimi")).name == "Mimi")
    #expect(try (container ~> (Cat.self, arguments: ("Tama", 4))).age == 4)
    #expect(try (container ~> (any Person).self).play() == "I'm playing with Hachi.")
    #expect(try (container ~> PetOwner.self).play() == "I'm playing with Hachi.")
    #expect(throws: ResolutionError.self) { try container ~> Walker.self }
  }
}
