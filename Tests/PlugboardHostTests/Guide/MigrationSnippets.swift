import PlugboardCompat
import PlugboardKit
import Testing

// The Swift code of Docs/migrating-from-swinject.md, compiled and run here
// so the guide cannot show code that does not build. Each region between
// `// guide: NAME` and `// end guide` appears verbatim in a ```swift block
// of the guide (MigrationGuideTests checks it).

// guide: services
protocol Pet: AnyObject { var name: String { get } }
final class Hamster: Pet {
  let name: String
  init(name: String) { self.name = name }
}
final class Keeper {
  let pet: any Pet
  var helper: Keeper?
  init(pet: any Pet) { self.pet = pet }
}
// end guide

@Suite struct MigrationSnippets {
  @Test func basics() throws {
    // guide: basics
    let container = Container()
    container.register((any Pet).self) { _ in Hamster(name: "Hammy") }
    container.register((any Pet).self, name: "guest") { _, name in Hamster(name: name) }
    container.register(Keeper.self) { r in Keeper(pet: try r.resolve()) }
      .dependsOn((any Pet).self)

    let keeper = try container.resolve(Keeper.self)  // throws a ResolutionError report
    let guest = try container.resolve((any Pet).self, name: "guest", argument: "Bo")
    let maybe = try container.resolve(Keeper?.self)  // nil only when not registered
    // end guide
    #expect(keeper.pet.name == "Hammy" && guest.name == "Bo" && maybe != nil)
  }

  @Test func scopesAndLaterWins() throws {
    // guide: scopes
    let container = Container()  // default scope: .graph, as Swinject
    container.register((any Pet).self) { _ in Hamster(name: "First") }
    container.register((any Pet).self) { _ in Hamster(name: "Second") }
      .inObjectScope(.container)
    #expect(try container.resolve((any Pet).self).name == "Second")  // the later one wins
    // end guide
  }

  @Test func circularWiring() throws {
    // guide: circular
    let container = Container()
    container.register((any Pet).self) { _ in Hamster(name: "Hammy") }
    container.register(Keeper.self) { r in Keeper(pet: try r.resolve()) }
      .initCompleted(resolving: Keeper.self) { r, keeper in
        keeper.helper = try r.resolve(Keeper.self)  // same instance in the .graph
      }
    let lazyKeeper = try container.resolve(Lazy<Keeper>.self)  // made on first .instance
    let keepers = try container.resolve(Provider<Keeper>.self)  // made on every .instance
    // end guide
    let keeper = try lazyKeeper.instance
    #expect(keeper.helper === keeper)
    #expect(try keepers.instance !== keepers.instance)
  }

  @Test func circularSingletons() throws {
    // guide: circular-singletons
    final class Coordinator {
      let screen: Screen
      init(screen: Screen) { self.screen = screen }
    }
    final class Screen {
      weak var coordinator: Coordinator?
    }
    let container = Container()
    container.register(Coordinator.self) { r in Coordinator(screen: try r.resolve()) }
      .inObjectScope(.container)
    container.register(Screen.self) { _ in Screen() }
      .inObjectScope(.container)
      .initCompleted(resolving: Coordinator.self) { r, screen in
        screen.coordinator = try r.resolve(Coordinator.self)
      }
    let coordinator = try container.resolve(Coordinator.self)  // its screen points back to it
    // end guide
    #expect(coordinator.screen.coordinator === coordinator)
    #expect(try container.resolve(Screen.self) === coordinator.screen)
  }

  @Test func forwarding() throws {
    // guide: forwarding
    let container = Container()
    container.register(Hamster.self) { _ in Hamster(name: "Hammy") }
      .inObjectScope(.container)
      .implements((any Pet).self)
    #expect(try container.resolve((any Pet).self) === container.resolve(Hamster.self))
    // end guide
  }

  @Test func multiBinding() throws {
    // guide: contributions
    let container = Container()
    container.contribute((any Pet).self, name: "hammy", order: 10) { _ in Hamster(name: "Hammy") }
    container.contribute((any Pet).self, name: "bo") { _ in Hamster(name: "Bo") }
      .inObjectScope(.container)

    let pets = try container.resolveAll((any Pet).self)  // order 0 first: Bo, then Hammy
    let byName = try container.resolveAllNamed((any Pet).self)  // ["bo": …, "hammy": …]
    struct Shelter { let pets: Contributions<any Pet> }  // or as a dependency
    container.autoregister(Shelter.self, initializer: Shelter.init)
    // end guide
    #expect(pets.map(\.name) == ["Bo", "Hammy"])
    #expect(byName["hammy"]?.name == "Hammy")
    #expect(try container.resolve(Shelter.self).pets.map(\.name) == ["Bo", "Hammy"])
  }

  @Test func assemblies() throws {
    // guide: assemblies
    struct PetAssembly: Assembly {
      func assemble(container: Container) {
        container.register((any Pet).self) { _ in Hamster(name: "Hammy") }
      }
    }
    let assembler = try Assembler([PetAssembly()])
    let pet = try assembler.resolver.resolve((any Pet).self)
    // end guide
    #expect(pet.name == "Hammy")
  }

  @Test func overrides() throws {
    let app = Container()
    app.register((any Pet).self) { _ in Hamster(name: "Hammy") }
    app.register(Keeper.self) { r in Keeper(pet: try r.resolve()) }
    // guide: overrides
    try app.withOverrides { (child) throws in
      child.register((any Pet).self) { _ in Hamster(name: "Double") }
      #expect(try child.resolve(Keeper.self).pet.name == "Double")
    }
    // end guide
  }
}

// guide: factory
final class PetScreen: FactoryModule {
  struct Dependency { let pet: any Pet }
  struct Payload { let title: String }
  let title: String
  init(dependency: Dependency, payload: Payload) {
    title = "\(payload.title): \(dependency.pet.name)"
  }
}

func registerPetScreen(in container: Container) {
  container.register(Factory<PetScreen>.self) { r in
    Factory(dependency: .init(pet: try r.resolve()))
  }
  .dependsOn((any Pet).self)
}
// end guide

// guide: inject
final class PetView {
  @Inject var pet: any Pet
  @Inject var keeper: Keeper?
  @Inject(name: "visitor", default: Hamster(name: "Stray")) var visitor: any Pet
}
// end guide

// guide: keypath-dependencies
extension Container {
  var pet: (any Pet)? { try? resolveIfRegistered() }
}
final class PetCorner {
  @Inject(\.pet) var pet: any Pet
}
// end guide

// guide: behaviors
struct Singletons: Behavior {
  func container<Type, Service>(
    _ container: Container, didRegisterType type: Type.Type,
    toService entry: ServiceEntry<Service>, withName name: String?
  ) {
    entry.inObjectScope(.container)  // every registration a singleton
  }
}
// end guide

extension MigrationSnippets {
  @Test func instancesLifetimesAndKeyPaths() throws {
    // guide: instances-lifetimes-keypaths
    let container = Container()
    container.register((any Pet).self, instance: Hamster(name: "Hammy"))  // every request gets it
    container.register(Keeper.self, lifetime: .singleton) { r in Keeper(pet: try r.resolve()) }
    let corner = try container.injected(PetCorner())  // @Inject(\.pet) reads container.pet
    // end guide
    #expect(try corner.pet === container.resolve((any Pet).self))
    #expect(try container.resolve(Keeper.self) === container.resolve(Keeper.self))
  }

  @Test func autoregistrationWithArguments() throws {
    // guide: autoregistration
    let container = Container()
    container.autoregister((any Pet).self, argument: String.self, initializer: Hamster.init)
    container.register(Keeper.self) { r in Keeper(pet: try r ~> ((any Pet).self, argument: "Bo")) }
    let keeper = try container.resolve(Keeper.self)  // its pet is Bo
    // end guide
    #expect(keeper.pet.name == "Bo")
  }

  @Test func behaviors() throws {
    // guide: behaviors-use
    let container = Container(behaviors: [Singletons()])
    container.register(Keeper.self) { r in Keeper(pet: try r.resolve()) }
    // end guide
    container.register((any Pet).self) { _ in Hamster(name: "Hammy") }
    #expect(try container.resolve(Keeper.self) === container.resolve(Keeper.self))
  }

  @Test func factoryAndInject() throws {
    let container = Container()
    container.register((any Pet).self) { _ in Hamster(name: "Hammy") }
    registerPetScreen(in: container)
    let screen = try container.resolve(Factory<PetScreen>.self).create(payload: .init(title: "Home"))
    #expect(screen.title == "Home: Hammy")
    // guide: injecting
    let view = try container.injected(PetView())
    // end guide
    #expect(view.pet.name == "Hammy" && view.keeper == nil && view.visitor.name == "Stray")
  }
}
