import Dispatch
import PlugboardKit
import PlugboardTestSupport
import Synchronization
import Testing

/// Swinject's documented patterns, each with Swinject's expected value,
/// so that code moved from Swinject behaves as it did there.
@Suite struct SwinjectParityTests {
  final class Tally: Sendable {
    let count = Atomic<Int>(0)
  }

  // Swinject's Documentation/CircularDependencies.md, with protocols.
  protocol ParentP: AnyObject { var child: any ChildP { get } }
  protocol ChildP: AnyObject { var parent: (any ParentP)? { get set } }
  final class Parent: ParentP {
    let child: any ChildP
    init(child: any ChildP) { self.child = child }
  }
  final class Child: ChildP {
    weak var parent: (any ParentP)?
  }

  static func parentAndChild(_ scope: ObjectScope, counting made: Tally? = nil) -> Container {
    let container = Container()
    container.register((any ParentP).self) { r in Parent(child: try r.resolve()) }
      .inObjectScope(scope)
    container.register((any ChildP).self) { _ in
      made?.count.add(1, ordering: .relaxed)
      return Child()
    }
    .inObjectScope(scope)
    .initCompleted { r, c in c.parent = try r.resolve((any ParentP).self) }
    return container
  }

  @Test func containerScopedParentAndChildWireEachOther() throws {
    let container = Self.parentAndChild(.container)
    let parent = try container.resolve((any ParentP).self)
    #expect(parent.child.parent === parent)
    #expect(try container.resolve((any ParentP).self) === parent)
    #expect(try container.resolve((any ChildP).self) === parent.child)
  }

  @Test(.blocking) func containerScopedParentAndChildAreMadeOnceUnderContention() throws {
    let made = Tally()
    let container = Self.parentAndChild(.container, counting: made)
    let parents = Mutex<[ObjectIdentifier]>([])
    DispatchQueue.concurrentPerform(iterations: 16) { index in
      let parent =
        index.isMultiple(of: 2)
        ? try? container.resolve((any ParentP).self)
        : try? container.resolve((any ChildP).self).parent
      parents.withLock { $0.append(parent.map { ObjectIdentifier($0) } ?? ObjectIdentifier(Child.self)) }
    }
    let parent = try container.resolve((any ParentP).self)
    #expect(parents.withLock { $0 } == Array(repeating: ObjectIdentifier(parent), count: 16))
    #expect(parent.child.parent === parent)
    #expect(made.count.load(ordering: .relaxed) == 1)
  }

  final class Left2 {
    let right: Right2
    init(right: Right2) { self.right = right }
  }
  final class Right2 {
    let left: Left2
    init(left: Left2) { self.left = left }
  }

  @Test func containerScopedConstructorsThatNeedEachOtherAreStillACycle() throws {
    let container = Container()
    container.register(Left2.self) { r in Left2(right: try r.resolve()) }.inObjectScope(.container)
    container.register(Right2.self) { r in Right2(left: try r.resolve()) }.inObjectScope(.container)
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Left2.self) }
    guard case .cycle(let path) = error.kind else {
      Issue.record("expected a cycle, got \(error.kind)")
      return
    }
    #expect(path.map(\.shortDescription) == ["Left2", "Right2", "Left2"])
    #expect(error.chain.map(\.key.shortDescription) == ["Left2", "Right2", "Left2"])
  }

  @Test func weakParentAndChildWireEachOther() throws {
    // Swinject's `.weak` is composed with `.graph`: the parent made for the
    // child's handler is the one the request gets.
    let container = Self.parentAndChild(.weak)
    let parent = try container.resolve((any ParentP).self)
    #expect(parent.child.parent === parent)
    #expect(try container.resolve((any ParentP).self) === parent)
  }

  @Test func aWeakInstanceNobodyHoldsIsStillMadeAgain() throws {
    let made = Tally()
    let container = Container()
    container.register(Shared.self) { _ in
      made.count.add(1, ordering: .relaxed)
      return Shared()
    }
    .inObjectScope(.weak)
    container.register(Both.self) { r in
      Both(left: Left(shared: try r.resolve()), right: Right(shared: try r.resolve()))
    }
    _ = try container.resolve(Shared.self)
    _ = try container.resolve(Shared.self)
    #expect(made.count.load(ordering: .relaxed) == 2)
    let both = try container.resolve(Both.self)
    #expect(both.left.shared === both.right.shared)
    #expect(made.count.load(ordering: .relaxed) == 3)
  }

  @Test func aForwardedTypeTakesTheRegistrationsArguments() throws {
    let container = Container()
    container.register(Dog.self) { _, name in Dog(name: name) }.implements((any Animal).self)
    let animal = try container.resolve((any Animal).self, argument: "Hachi")
    #expect(animal.name == "Hachi")
    #expect(animal is Dog)
  }

  @Test func aForwardedTypeTakesSeveralArguments() throws {
    let container = Container()
    container.register(Cat.self) { _, name, age in Cat(name: name, age: age) }
      .inObjectScope(.container)
      .implements((any Animal).self)
    let animal = try container.resolve((any Animal).self, arguments: "Mimi", 3)
    #expect((animal as? Cat)?.age == 3)
    #expect(try container.resolve(Cat.self, arguments: "Other", 4) === animal)
  }

  @Test func resettingTheContainerScopeMakesNewInstances() throws {
    let parent = Container()
    parent.register(Cat.self) { _ in Cat(name: "Mimi") }.inObjectScope(.container)
    let container = Container(parent: parent)
    container.register(Dog.self) { _ in Dog(name: "Hachi") }.inObjectScope(.container)
    let dog = try container.resolve(Dog.self)
    let cat = try container.resolve(Cat.self)
    container.resetObjectScope(.container)
    let newDog = try container.resolve(Dog.self)
    #expect(newDog !== dog)
    #expect(try container.resolve(Cat.self) !== cat)
    #expect(try container.resolve(Dog.self) === newDog)
  }

  @Test func resettingOneServiceTypeKeepsTheOthers() throws {
    let container = Container()
    container.register(Dog.self) { _ in Dog(name: "Hachi") }.inObjectScope(.container)
    container.register(Dog.self, name: "Pochi") { _ in Dog(name: "Pochi") }.inObjectScope(.container)
    container.register(Cat.self) { _ in Cat(name: "Mimi") }.inObjectScope(.container)
    let dog = try container.resolve(Dog.self)
    let pochi = try container.resolve(Dog.self, name: "Pochi")
    let cat = try container.resolve(Cat.self)
    container.resetObjectScope(.container, serviceType: Dog.self)
    #expect(try container.resolve(Dog.self) !== dog)
    #expect(try container.resolve(Dog.self, name: "Pochi") !== pochi)
    #expect(try container.resolve(Cat.self) === cat)
  }

  @Test func resettingAnotherScopeKeepsContainerInstances() throws {
    let container = Container()
    container.register(Dog.self) { _ in Dog(name: "Hachi") }.inObjectScope(.container)
    container.register(Cat.self) { _ in Cat(name: "Mimi") }.inObjectScope(.weak)
    let dog = try container.resolve(Dog.self)
    let cat = try container.resolve(Cat.self)
    #expect(try container.resolve(Cat.self) === cat)
    container.resetObjectScope(.weak)
    #expect(try container.resolve(Dog.self) === dog)
    #expect(try container.resolve(Cat.self) !== cat)
  }

  @Test(.blocking) func resetsWhileOtherThreadsResolveHandOutWholeInstances() throws {
    let container = Container()
    container.register(Dog.self) { _ in Dog(name: "Hachi") }.inObjectScope(.container)
    let names = Mutex<Set<String>>([])
    DispatchQueue.concurrentPerform(iterations: 2000) { index in
      if index.isMultiple(of: 10) { container.resetObjectScope(.container) }
      let name = (try? container.resolve(Dog.self).name) ?? "failed"
      names.withLock { _ = $0.insert(name) }
    }
    #expect(names.withLock { $0 } == ["Hachi"])
  }

  @Test func anyRegistrationCountsOnesTakingArguments() {
    let container = Container()
    container.register(Dog.self) { _, name in Dog(name: name) }
    container.register(Cat.self, name: "Mimi") { _ in Cat(name: "Mimi") }
    #expect(container.hasAnyRegistration(of: Dog.self))
    #expect(!container.hasRegistration(Dog.self))
    #expect(container.hasAnyRegistration(of: Cat.self, name: "Mimi"))
    #expect(!container.hasAnyRegistration(of: Cat.self))
    #expect(!container.hasAnyRegistration(of: Dog.self, name: "Hachi"))
    #expect(Container(parent: container).hasAnyRegistration(of: Dog.self))
  }

  @Test func describingAContainerListsItsRegistrationsAsSwinjectDoes() {
    let container = Container()
    container.register((any Animal).self, name: "Hachi") { _ in Dog(name: "Hachi") }
      .inObjectScope(.container)
    container.register(Dog.self) { _, name in Dog(name: name) }
    container.register(Cat.self) { _ in Cat(name: "Mimi") }.initCompleted { _, _ in }
    #expect(
      String(describing: container) == """
        [
            { Service: Animal, Name: "Hachi", Factory: Resolver -> Animal, ObjectScope: container },
            { Service: Cat, Factory: Resolver -> Cat, ObjectScope: graph, InitCompleted: Specified 1 closures },
            { Service: Dog, Factory: (Resolver, String) -> Dog, ObjectScope: graph }
        ]
        """)
  }

  @Test func assemblerTakesAnOptionalContainerAndParent() throws {
    let shared = Container()
    let assembler = try Assembler(container: shared)
    #expect(assembler.container === shared)
    let own = try Assembler(container: nil)
    #expect(own.container !== shared)
    #expect(own.container.defaultObjectScope == .graph)
    let noParent: Assembler? = nil
    #expect(try Assembler([], parent: noParent).container.parent == nil)
    #expect(try Assembler([], parent: nil).container.defaultObjectScope == .graph)
    #expect(try Assembler([], parent: assembler).container.parent === shared)
  }

  final class Customer {}
  final class Employee {
    let customer: Customer
    let lazyCustomer: Lazy<Customer>
    var customerWhileResolving: Customer?
    init(customer: Customer, lazyCustomer: Lazy<Customer>) {
      self.customer = customer
      self.lazyCustomer = lazyCustomer
    }
  }

  @Test func aLazySharesItsGraphOnlyWhileTheResolutionRuns() throws {
    // A deliberate difference (Docs/migrating-from-swinject.md): Swinject's
    // Lazy rejoins its graph after `resolve` returned; here it resolves anew.
    let container = Container()
    container.register(Customer.self) { _ in Customer() }
    container.register(Employee.self) { r in
      Employee(customer: try r.resolve(), lazyCustomer: try r.resolve())
    }
    .initCompleted { _, employee in employee.customerWhileResolving = try employee.lazyCustomer.instance }
    let employee = try container.resolve(Employee.self)
    #expect(employee.customerWhileResolving === employee.customer)

    container.register(Employee.self) { r in
      Employee(customer: try r.resolve(), lazyCustomer: try r.resolve())
    }
    let later = try container.resolve(Employee.self)
    #expect(try later.lazyCustomer.instance !== later.customer)
    #expect(try later.lazyCustomer.instance === later.lazyCustomer.instance)
  }
}
