import Dispatch
import PlugboardKit
import PlugboardTestSupport
import Synchronization
import Testing

/// `Lazy<T>` and `Provider<T>` as dependencies, as in Swinject.
@Suite struct LazyProviderTests {
  final class Engine: Sendable {
    static let made = Atomic<Int>(0)
    let serial: Int
    init() { serial = Self.made.add(1, ordering: .relaxed).newValue }
  }

  final class Car {
    let engine: Lazy<Engine>
    init(engine: Lazy<Engine>) { self.engine = engine }
  }

  final class Garage {
    let cars: Provider<Engine>
    init(cars: Provider<Engine>) { self.cars = cars }
  }

  @Test func lazyResolvesOnFirstUseAndKeepsTheInstance() throws {
    let container = Container()
    container.register(Engine.self) { _ in Engine() }
    let lazy = try container.resolve(Lazy<Engine>.self)
    let before = Engine.made.load(ordering: .relaxed)
    let first = try lazy.instance
    #expect(Engine.made.load(ordering: .relaxed) > before)
    #expect(try lazy.instance === first)
  }

  /// `resolveIfRegistered` of a wrapper asks about the wrapped service:
  /// nil only when it is not registered, with or without arguments.
  @Test func resolveIfRegisteredOfAWrapperFollowsTheWrappedService() throws {
    let empty = Container()
    #expect(try empty.resolveIfRegistered(Lazy<Engine>.self) == nil)
    #expect(try empty.resolveIfRegistered(Provider<Engine>.self, name: "spare") == nil)
    #expect(try empty.resolveIfRegistered(Lazy<Engine>.self, argument: 3) == nil)
    let container = Container()
    container.register(Engine.self) { _ in Engine() }
    container.register(Engine.self, name: "spare") { (_: Resolver, _: Int) in Engine() }
    let lazy = try #require(try container.resolveIfRegistered(Lazy<Engine>.self))
    _ = try lazy.instance
    // Registered with an argument and asked for without one: found, and
    // its use throws, as for `resolveIfRegistered(Engine.self, …)`.
    let unarmed = try #require(try container.resolveIfRegistered(Provider<Engine>.self, name: "spare"))
    #expect(throws: ResolutionError.self) { try unarmed.instance }
    let spare = try #require(
      try container.resolveIfRegistered(Provider<Engine>.self, name: "spare", argument: 3))
    _ = try spare.instance
    #expect(try container.resolveIfRegistered(Engine?.self) != nil)
  }

  @Test func providerResolvesOnEveryUse() throws {
    let container = Container()
    container.register(Engine.self) { _ in Engine() }
    let provider = try container.resolve(Provider<Engine>.self)
    #expect(try provider.instance !== provider.instance)
  }

  @Test func namesAndArguments() throws {
    let container = Container()
    container.register(Animal.self, name: "cat") { _ in Cat(name: "Mimi") }
    container.register(Animal.self) { _, name in Dog(name: name) }
    #expect(try container.resolve(Lazy<any Animal>.self, name: "cat").instance.name == "Mimi")
    #expect(try container.resolve(Provider<any Animal>.self, argument: "Hachi").instance.name == "Hachi")
    #expect(try container.resolve(Lazy<any Animal>.self, argument: "Rex").instance.name == "Rex")
  }

  @Test func autoregisterParametersAreDeclaredAsDeferredEdges() throws {
    let container = Container()
    container.register(Engine.self) { _ in Engine() }
    let car = container.autoregister(Car.self, initializer: Car.init)
    let garage = container.autoregister(Garage.self, initializer: Garage.init)
    #expect(try container.resolve(Car.self).engine.instance.serial > 0)
    #expect(try container.resolve(Garage.self).cars.instance.serial > 0)
    let infos = container.registrations
    let carInfo = try #require(infos.first { $0.key == car.key })
    let garageInfo = try #require(infos.first { $0.key == garage.key })
    #expect(carInfo.dependencies == [])
    #expect(carInfo.deferredDependencies == [DeferredDependency(key: ServiceKey(Engine.self), kind: .lazy)])
    #expect(
      garageInfo.deferredDependencies.map(\.description) == [
        "Provider<PlugboardKitTests.LazyProviderTests.Engine>"
      ])
  }

  @Test func dependsOnDeclaresWrappersByTheirTarget() throws {
    let container = Container()
    let entry = container.register(Car.self) { r in try Car(engine: r.resolve()) }
      .dependsOn(Lazy<Engine>.self, Dog?.self, Cat.self)
    let info = try #require(container.registrations.first { $0.key == entry.key })
    #expect(info.dependencies == [ServiceKey(Cat.self)])
    #expect(info.optionalDependencies == [ServiceKey(Dog.self)])
    #expect(info.deferredDependencies.map(\.kind) == [.lazy])
  }

  @Test func aMissingTargetThrowsAtUseWithTheInjectionChain() throws {
    let container = Container()
    let line = #line + 1
    container.autoregister(Car.self, initializer: Car.init)
    let car = try container.resolve(Car.self)
    let error = try #require(throws: ResolutionError.self) { try car.engine.instance }
    guard case .notRegistered = error.kind else {
      Issue.record("expected notRegistered, got \(error.kind)")
      return
    }
    #expect(error.key == ServiceKey(Engine.self))
    #expect(error.requested == ServiceKey(Car.self))
    #expect(
      error.description == """
        error: cannot resolve PlugboardKitTests.LazyProviderTests.Car

        What went wrong:
          No registration for PlugboardKitTests.LazyProviderTests.Engine.

        Chain:
          Car  (registered at PlugboardKitTests/LazyProviderTests.swift:\(line))
          → Lazy<PlugboardKitTests.LazyProviderTests.Engine>
          → Engine  (✗ not registered)

        Action:
          Register Engine in an assembly that is loaded, for example \
        container.register(Engine.self) { r in ... }.
        """)
  }

  @Test func aLazyEdgeBreaksACycle() throws {
    final class Owner {
      let pet: Pet
      init(pet: Pet) { self.pet = pet }
    }
    final class Pet {
      let owner: Lazy<Owner>
      init(owner: Lazy<Owner>) { self.owner = owner }
    }
    let container = Container()
    container.autoregister(Owner.self, initializer: Owner.init).inObjectScope(.container)
    container.autoregister(Pet.self, initializer: Pet.init)
    let owner = try container.resolve(Owner.self)
    #expect(try owner.pet.owner.instance === owner)
  }
}

extension LazyProviderTests {
  @Test(.blocking) func concurrentFirstReadsShareOneInstance() throws {
    let container = Container()
    container.register(Engine.self) { _ in Engine() }
    let lazy = try container.resolve(Lazy<Engine>.self)
    let serials = Mutex<Set<Int>>([])
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      if let engine = try? lazy.instance { serials.withLock { _ = $0.insert(engine.serial) } }
    }
    #expect(serials.withLock { $0.count } == 1)
  }
}
