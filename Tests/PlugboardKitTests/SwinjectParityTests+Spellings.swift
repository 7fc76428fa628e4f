import PlugboardCompat
import PlugboardKit
import Testing

// Spellings other containers use, as code written for them has them,
// ported with `try` before `resolve`.

extension Container {
  /// Key-path access: a property on the container.
  fileprivate var keyPathAnimal: (any Animal)? { try? resolveIfRegistered() }
  fileprivate var keyPathPerson: (any Person)? { try? resolveIfRegistered() }
}

extension SwinjectParityTests {
  @Test func anInstanceRegisteredAsIsIsWhatEveryRequestGets() throws {
    // Registering a made instance: `container.register(Database.self, instance: database)`.
    let container = Container()
    let hachi = Dog(name: "Hachi")
    let entry = container.register((any Animal).self, instance: hachi)
    #expect(try container.resolve((any Animal).self) === hachi)
    #expect(try container.resolve((any Animal).self) === hachi)
    #expect(entry.objectScope == .container)
    #expect(container.register(Dog.self, name: "other", instance: Dog(name: "Bo")).key.name == "other")
    #expect(try container.resolve(Dog.self, name: "other").name == "Bo")
  }

  final class KeyPathService {
    @Inject(\.keyPathAnimal) var animal: any Animal
    @Inject(\.keyPathPerson) var person: (any Person)?
    @Inject(\.keyPathPerson, default: PetOwner(pet: Dog(name: "Stray"))) var owner: any Person
  }

  @Test func injectByKeyPathReadsThePropertyOnTheContainer() throws {
    // The key-path spelling: `@Inject(\.userRepository) var repository: UserRepositoryProtocol`.
    let container = Container()
    container.register((any Animal).self) { _ in Cat(name: "Mimi") }
    let service = try container.injected(KeyPathService())
    #expect(service.animal.name == "Mimi")
    #expect(service.person == nil)
    #expect(service.owner.play() == "I'm playing with Stray.")

    container.register((any Person).self) { r in PetOwner(pet: try r.resolve()) }
    let later = try container.injected(KeyPathService())
    #expect(later.person?.play() == "I'm playing with Mimi.")
    #expect(later.owner.play() == "I'm playing with Mimi.")
  }

  @Test func injectByKeyPathReportsWhatIsMissing() throws {
    let error = try #require(throws: ResolutionError.self) {
      try Container().inject(into: KeyPathService())
    }
    #expect(error.requested.shortDescription == "Animal")
  }

  final class PayloadFreeScreen: FactoryModule {
    struct Dependency { let animal: any Animal }
    let name: String
    init(dependency: Dependency, payload: Void) { name = dependency.animal.name }
  }

  @Test func aModuleWithoutPayloadIsMadeFromItsDependencyAlone() {
    // Pure's factory modules: `UserRemoteDataSourceImpl(dependency: .init(apiClient: apiClient))`.
    let screen = PayloadFreeScreen(dependency: .init(animal: Dog(name: "Hachi")))
    #expect(screen.name == "Hachi")
  }

  @Test func aLifetimeIsTheScopeGivenUpFront() throws {
    // The lifetime spelling: `container.register(Requester.self, lifetime: .singleton) { Requester() }`.
    let container = Container()
    container.register(Dog.self, lifetime: .singleton) { Dog(name: "Hachi") }
    container.register((any Person).self, lifetime: .transient) { r in
      PetOwner(pet: try r.resolve(Dog.self))
    }
    #expect(try container.resolve(Dog.self) === container.resolve(Dog.self))
    let first = try container.resolve((any Person).self) as? PetOwner
    let second = try container.resolve((any Person).self) as? PetOwner
    #expect(first !== second)
    #expect(first?.pet === second?.pet)
    #expect(ObjectScope.singleton == .container)
  }

  @Test func aContainerScopedRegistrationKeepsTheFirstArgumentsInstance() throws {
    // Swinject does the same: `.container` is one instance per container,
    // whatever the arguments of the request that made it.
    let container = Container()
    container.register(Dog.self) { _, name in Dog(name: name) }.inObjectScope(.container)
    let first = try container.resolve(Dog.self, argument: "first")
    let second = try container.resolve(Dog.self, argument: "second")
    #expect(first === second)
    #expect(second.name == "first")
  }
}
