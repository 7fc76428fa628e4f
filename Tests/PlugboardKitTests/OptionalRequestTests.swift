import PlugboardKit
import Testing

/// `T?` requests resolve `T`: `nil` only when nothing is registered.
@Suite struct OptionalRequestTests {
  struct Failure: Error {}

  @Test func optionalTypeResolvesTheWrappedService() throws {
    let container = Container()
    container.register(Dog.self) { _ in Dog(name: "Hachi") }
    let dog = try container.resolve(Dog?.self)
    let inferred: Dog? = try container.resolve()
    let named: Dog? = try container.resolve(name: "nobody")
    #expect(dog?.name == "Hachi")
    #expect(inferred?.name == "Hachi")
    #expect(named == nil)
    #expect(try container.resolve(Cat?.self) == nil)
  }

  @Test func aFailingWrappedServiceStillThrows() throws {
    let container = Container()
    container.register(Dog.self) { _ in throw Failure() }
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Dog?.self) }
    #expect(error.key == ServiceKey(Dog.self))
    #expect(error.underlyingError is Failure)
  }

  @Test func anOptionalRegistrationOfItsOwnWins() throws {
    let container = Container()
    container.register(Dog.self) { _ in Dog(name: "Hachi") }
    container.register(Dog?.self) { _ in nil }
    #expect(try container.resolve(Dog?.self) == nil)
  }

  @Test func optionalRequestsWithArguments() throws {
    let container = Container()
    container.register(Cat.self) { _, name, age in Cat(name: name, age: age) }
    let cat = try container.resolve(Cat?.self, arguments: "Mimi", 3)
    #expect(cat?.name == "Mimi")
    #expect(try container.resolve(Dog?.self, argument: "Hachi") == nil)
    // Registered, with other argument types: a mismatch, not a nil.
    #expect(throws: ResolutionError.self) { try container.resolve(Cat?.self, argument: "Mimi") }
  }

  @Test func resolveIfRegisteredWithArguments() throws {
    let container = Container()
    container.register(Cat.self) { _, name, age in Cat(name: name, age: age) }
    #expect(try container.resolveIfRegistered(Cat.self, arguments: "Mimi", 3)?.age == 3)
    #expect(try container.resolveIfRegistered(Dog.self, argument: "Hachi") == nil)
    let error = try #require(throws: ResolutionError.self) {
      try container.resolveIfRegistered(Cat.self, argument: "Mimi")
    }
    guard case .argumentsMismatch = error.kind else {
      Issue.record("expected argumentsMismatch, got \(error.kind)")
      return
    }
  }

  /// A miss is answered from what is registered now, here and in the
  /// parent, however often the type was asked for before: only that a
  /// type is not a wrapper is remembered between requests.
  @Test func repeatedMissesFollowTheRegistrations() throws {
    let parent = Container()
    let container = Container(parent: parent)
    for _ in 0..<3 {
      #expect(try container.resolveIfRegistered(Dog.self) == nil)
      #expect(try container.resolveIfRegistered(Dog?.self) == nil)
    }
    parent.register(Dog.self, name: "pet") { _, name in Dog(name: name) }
    #expect(try container.resolveIfRegistered(Dog.self) == nil)
    #expect(try container.resolveIfRegistered(Dog.self, name: "pet", argument: "Hachi")?.name == "Hachi")
    let error = try #require(throws: ResolutionError.self) {
      try container.resolveIfRegistered(Dog.self, name: "pet")
    }
    guard case .argumentsMismatch = error.kind else {
      Issue.record("expected argumentsMismatch, got \(error.kind)")
      return
    }
    container.register(Dog.self) { _ in Dog(name: "Rex") }
    #expect(try container.resolveIfRegistered(Dog.self)?.name == "Rex")
    #expect(try container.resolveIfRegistered(Dog?.self)??.name == "Rex")
  }

  @Test func autoregisterWithOptionalParameters() throws {
    final class Walker {
      let dog: Dog?
      let cat: Cat?
      init(dog: Dog?, cat: Cat?) {
        self.dog = dog
        self.cat = cat
      }
    }
    let container = Container()
    container.register(Dog.self) { _ in Dog(name: "Hachi") }
    let entry = container.autoregister(Walker.self, initializer: Walker.init)
    let walker = try container.resolve(Walker.self)
    #expect(walker.dog?.name == "Hachi")
    #expect(walker.cat == nil)
    let info = try #require(container.registrations.first { $0.key == entry.key })
    #expect(info.dependencies == [])
    #expect(info.optionalDependencies == [ServiceKey(Dog.self), ServiceKey(Cat.self)])
  }
}
