import PlugboardKit
import Testing

// Swinject's ContainerTests.CustomStringConvertible, ported: the same
// registrations print the same text, `Resolver -> Animal` for a factory of
// the resolver alone and `(Resolver, String, Bool) -> Animal` with
// arguments.
extension SwinjectParityTests {
  @Test func describingAnEmptyContainer() {
    #expect(Container().description == "[\n]")
  }

  @Test func describingARegistration() {
    let container = Container()
    container.register(Animal.self) { _ in Cat(name: "Mimi") }
    #expect(
      container.description
        == "[\n    { Service: Animal, Factory: Resolver -> Animal, ObjectScope: graph }\n]")
  }

  @Test func describingARegistrationWithName() {
    let container = Container()
    container.register(Animal.self, name: "My Cat") { _ in Cat(name: "Mimi") }
    #expect(
      container.description
        == "[\n    { Service: Animal, Name: \"My Cat\", Factory: Resolver -> Animal, ObjectScope: graph }\n]")
  }

  @Test func describingARegistrationWithArguments() {
    let container = Container()
    container.register(Animal.self) { (_, name: String, sleeping: Bool) in Cat(name: name) }
    #expect(
      container.description
        == "[\n    { Service: Animal, Factory: (Resolver, String, Bool) -> Animal, ObjectScope: graph }\n]")
  }

  @Test func describingARegistrationWithItsScope() {
    let container = Container()
    container.register(Animal.self) { _ in Cat(name: "Mimi") }.inObjectScope(.container)
    #expect(
      container.description
        == "[\n    { Service: Animal, Factory: Resolver -> Animal, ObjectScope: container }\n]")
  }

  @Test func describingARegistrationWithInitCompleted() {
    let container = Container()
    container.register(Animal.self) { _ in Cat(name: "Mimi") }.initCompleted { _, _ in }
    #expect(
      container.description
        == "[\n    { Service: Animal, Factory: Resolver -> Animal, ObjectScope: graph, "
        + "InitCompleted: Specified 1 closures }\n]")
  }

  @Test func describingSeveralRegistrations() {
    let container = Container()
    container.register(Animal.self, name: "1") { _ in Cat(name: "Mimi") }
    container.register(Animal.self, name: "2") { _ in Cat(name: "Mimi") }
    #expect(
      container.description
        == "[\n    { Service: Animal, Name: \"1\", Factory: Resolver -> Animal, ObjectScope: graph },\n"
        + "    { Service: Animal, Name: \"2\", Factory: Resolver -> Animal, ObjectScope: graph }\n]")
  }
}
