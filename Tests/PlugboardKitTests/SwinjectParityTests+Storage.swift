import PlugboardKit
import Testing

// Swinject's storage API: custom scopes made from a storage factory, the
// five storages, and object graphs, ported by writing `CustomScope` where
// Swinject's declaration wrote `ObjectScope`.

extension CustomScope {
  fileprivate static let permanent = CustomScope(
    storageFactory: PermanentStorage.init, description: "permanent")
  fileprivate static let perGraph = CustomScope(storageFactory: GraphStorage.init, description: "perGraph")
  fileprivate static let weakInGraph = CustomScope(storageFactory: WeakStorage.init, parent: .graph)
  fileprivate static let fresh = CustomScope(storageFactory: TransientStorage.init)
}

extension SwinjectParityTests {
  /// Counts what the container asks of it, as a storage of a user's own.
  final class CountingStorage: InstanceStorage {
    var completions = 0
    var instance: Any?

    func graphResolutionCompleted() { completions += 1 }
  }

  @Test func aPermanentStorageScopeKeepsItsInstanceUntilReset() throws {
    let container = Container()
    container.register(Dog.self) { _ in Dog(name: "Hachi") }.inObjectScope(.permanent)
    let first = try container.resolve(Dog.self)
    #expect(try container.resolve(Dog.self) === first)
    container.resetObjectScope(.permanent)
    #expect(try container.resolve(Dog.self) !== first)
    #expect(String(describing: container).contains("ObjectScope: permanent"))
  }

  @Test func aGraphStorageScopeSharesWithinOneGraph() throws {
    let container = Container()
    container.register(Shared.self) { _ in Shared() }.inObjectScope(.perGraph)
    container.register(Both.self) { r in
      Both(left: Left(shared: try r.resolve()), right: Right(shared: try r.resolve()))
    }
    let both = try container.resolve(Both.self)
    #expect(both.left.shared === both.right.shared)
    #expect(try container.resolve(Both.self).left.shared !== both.left.shared)

    let graph = GraphIdentifier()
    let first = try container.withObjectGraph(graph) { try $0.resolve(Both.self) }
    let second = try container.withObjectGraph(graph) { try $0.resolve(Both.self) }
    #expect(first.left.shared === second.right.shared)
    #expect(
      try container.withObjectGraph(GraphIdentifier()) { try $0.resolve(Both.self) }.left.shared
        !== first.left.shared)
  }

  @Test func aWeakStorageUnderTheGraphScopeWiresParentAndChild() throws {
    let container = Container()
    container.register((any ParentP).self) { r in Parent(child: try r.resolve()) }
      .inObjectScope(.weakInGraph)
    container.register((any ChildP).self) { _ in Child() }
      .inObjectScope(.weakInGraph)
      .initCompleted { r, c in c.parent = try r.resolve((any ParentP).self) }
    let parent = try container.resolve((any ParentP).self)
    #expect(parent.child.parent === parent)
    #expect(try container.resolve((any ParentP).self) === parent)
    let child = try container.resolve((any ChildP).self)
    #expect(child === parent.child)
  }

  @Test func aTransientStorageScopeMakesOneEachTime() throws {
    let container = Container()
    container.register(Dog.self) { _ in Dog(name: "Hachi") }.inObjectScope(.fresh)
    #expect(try container.resolve(Dog.self) !== container.resolve(Dog.self))
  }

  @Test func aStorageOfYourOwnHearsEachGraphEndAndTheReset() throws {
    let storage = CountingStorage()
    let scope = CustomScope(storageFactory: { storage }, description: "counting")
    let container = Container()
    container.register(Dog.self) { _ in Dog(name: "Hachi") }.inObjectScope(scope)
    let dog = try container.resolve(Dog.self)
    #expect(try container.resolve(Dog.self) === dog)
    #expect(storage.completions == 2)
    #expect(storage.instance as? Dog === dog)
    container.resetObjectScope(scope)
    #expect(storage.instance == nil)
  }

  // Swinject's ContainerTests.CustomScope "Resetting scope": a storage
  // filled by hand, for a registration never resolved, is emptied.
  final class FakeStorage: InstanceStorage {
    var instance: Any?
  }

  @Test func aResetEmptiesAStorageFilledByHand() {
    let storage = FakeStorage()
    let custom = CustomScope(storageFactory: { storage })
    let container = Container()
    container.register(Int.self) { _ in 0 }.inObjectScope(custom)
    storage.instance = 42
    container.resetObjectScope(custom)
    #expect(storage.instance == nil)
  }

  @Test func aChildsResetEmptiesAStorageFilledByHandInItsParent() {
    let storage = FakeStorage()
    let custom = CustomScope(storageFactory: { storage })
    let container = Container()
    let child = Container(parent: container)
    container.register(Int.self) { _ in 0 }.inObjectScope(custom)
    storage.instance = 42
    child.resetObjectScope(custom)
    #expect(storage.instance == nil)
  }

  @Test func aResetOfAnotherScopeLeavesAStorageFilledByHand() throws {
    let storage = FakeStorage()
    let custom = CustomScope(storageFactory: { storage })
    let other = CustomScope(storageFactory: FakeStorage.init)
    let container = Container()
    container.register(Int.self) { _ in 0 }.inObjectScope(custom)
    storage.instance = 42
    container.resetObjectScope(other)
    #expect(storage.instance as? Int == 42)
    #expect(try container.resolve(Int.self) == 42)
  }

  @Test func aCompositeStorageReadsTheFirstAndWritesAll() {
    let weak = WeakStorage()
    let permanent = PermanentStorage()
    let composite = CompositeStorage([weak, permanent])
    let dog = Dog(name: "Hachi")
    composite.instance = dog
    #expect(weak.instance as? Dog === dog && permanent.instance as? Dog === dog)
    permanent.instance = nil
    #expect(composite.instance as? Dog === dog)
    composite.instance = nil
    #expect(composite.instance == nil)
    let graph = GraphIdentifier()
    let graphs = GraphStorage()
    graphs.setInstance(dog, inGraph: graph)
    #expect(graphs.instance(inGraph: graph) as? Dog === dog)
    #expect(graphs.instance(inGraph: GraphIdentifier()) == nil)
    graphs.graphResolutionCompleted()
    #expect(graphs.instance == nil)
    #expect(graphs.instance(inGraph: graph) as? Dog === dog)
  }
}
