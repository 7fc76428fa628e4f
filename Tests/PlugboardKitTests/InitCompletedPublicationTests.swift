import Dispatch
import Foundation
import PlugboardTestSupport
import Synchronization
import Testing

@testable import PlugboardKit

/// A shared instance whose `initCompleted` handlers are still running is
/// not handed to another thread, except to one that would otherwise
/// deadlock with the thread running them (their wiring needs each other,
/// as Swinject's parent and child do on one thread).
///
/// Each test holds a handler or a factory at a barrier until the other
/// thread is either waiting in the construction coordinator or has
/// already returned, so each interleaving is forced, not hoped for.
@Suite(.blocking) struct InitCompletedPublicationTests {
  // Sendable so the threads can hand them back; their fields are set
  // before they are handed over, or under the container's wiring.
  protocol ParentP: AnyObject, Sendable { var child: any ChildP { get } }
  protocol ChildP: AnyObject, Sendable { var parent: (any ParentP)? { get set } }
  final class Parent: ParentP {
    let child: any ChildP
    init(child: any ChildP) { self.child = child }
  }
  final class Child: ChildP, @unchecked Sendable {
    weak var parent: (any ParentP)?
  }

  /// The scopes that make an instance once under the coordinator.
  enum Scope: String, Sendable, CustomTestStringConvertible {
    case container, custom, storage, weak

    /// The scopes made once under the coordinator.
    static let exclusive: [Scope] = [.container, .custom, .storage]

    static let session = CustomScope("session")
    static let permanent = CustomScope(storageFactory: PermanentStorage.init, description: "permanent")

    func apply<Service>(_ entry: ServiceEntry<Service>) {
      switch self {
      case .container: entry.inObjectScope(.container)
      case .custom: entry.inObjectScope(Self.session)
      case .storage: entry.inObjectScope(Self.permanent)
      case .weak: entry.inObjectScope(.weak)
      }
    }

    var testDescription: String { rawValue }
  }

  /// Shut until opened, then open for everyone; passing is bounded, so a
  /// broken build fails instead of hanging.
  final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func open() { semaphore.signal() }
    func pass() -> Bool {
      guard semaphore.wait(timeout: .now() + 30) == .success else { return false }
      semaphore.signal()
      return true
    }
  }

  /// Parent and child wired by the child's handler; `beforeWiring` runs in
  /// that handler before it resolves the parent, `beforeChild` in the
  /// parent's factory before it resolves the child.
  final class Wiring: Sendable {
    final class Tally: Sendable {
      let parentMade = Atomic<Int>(0)
      let childMade = Atomic<Int>(0)
      // `Locked`, not `Mutex`: the thread sanitizer sees through an
      // `NSLock` only (see `Locked`); this suite runs under it in CI.
      let beforeWiring = Locked<(@Sendable () -> Void)?>(nil)
      let beforeChild = Locked<(@Sendable () -> Void)?>(nil)
      /// Every parent made, held: a `.weak` one nobody holds would go, and
      /// its child's `parent` with it.
      let parents = Locked<[any ParentP]>([])

      func runOnce(_ hook: Locked<(@Sendable () -> Void)?>) {
        hook.withLock { hook in
          defer { hook = nil }
          return hook
        }?()
      }
    }

    let container = Container()
    let tally = Tally()
    let childCell: ObjectIdentifier
    let parentCell: ObjectIdentifier

    init(_ scope: Scope) {
      let tally = tally
      let parent = container.register((any ParentP).self) { r in
        tally.parentMade.add(1, ordering: .relaxed)
        tally.runOnce(tally.beforeChild)
        let parent = Parent(child: try r.resolve())
        tally.parents.withLock { $0.append(parent) }
        return parent
      }
      scope.apply(parent)
      let child = container.register((any ChildP).self) { _ in
        tally.childMade.add(1, ordering: .relaxed)
        return Child()
      }
      .initCompleted { r, c in
        tally.runOnce(tally.beforeWiring)
        c.parent = try r.resolve((any ParentP).self)
      }
      scope.apply(child)
      childCell = ObjectIdentifier(child.record)
      parentCell = ObjectIdentifier(parent.record)
    }

    /// Returns once another thread waits for `cell`, or `done` is set.
    func awaitWaiter(on cell: ObjectIdentifier, unless done: () -> Bool) {
      let deadline = Date().addingTimeInterval(30)
      while ConstructionCoordinator.shared.waiterCount(for: cell) == 0 && !done() {
        if Date() > deadline {
          Issue.record("the other thread neither waited nor returned")
          return
        }
        sched_yield()
      }
    }
  }

  /// Runs `body` on a thread of its own; `join` waits for it.
  final class Background<Value: Sendable>: Sendable {
    private let result = Locked<Value?>(nil)
    private let finishedFlag = Atomic<Bool>(false)
    var done: Bool { finishedFlag.load(ordering: .acquiring) }
    private let finished = Gate()

    init(_ body: @escaping @Sendable () -> Value) {
      let thread = Thread { [self] in
        let value = body()
        result.withLock { $0 = value }
        finishedFlag.store(true, ordering: .releasing)
        finished.open()
      }
      thread.start()
    }

    func join() -> Value? {
      guard finished.pass() else { return nil }
      return result.withLock { $0 }
    }
  }

  /// The reported case: a thread resolving the child while another runs
  /// its handler got it with `parent` still `nil`. Now it waits for the
  /// handler; under `.weak`, whose construction is not exclusive, it makes
  /// a child of its own instead, but never gets the one being wired.
  @Test(arguments: Scope.exclusive + [.weak])
  func anotherThreadGetsTheChildOnlyOnceItsHandlerHasRun(scope: Scope) throws {
    let wiring = Wiring(scope)
    let entered = Gate()
    let proceed = Gate()
    wiring.tally.beforeWiring.withLock {
      $0 = {
        entered.open()
        _ = proceed.pass()
      }
    }
    let wirer = Background { Result { try wiring.container.resolve((any ChildP).self) } }
    // Whether the child had its parent when this thread got it.
    let other = Background { () -> Result<Bool, any Error>? in
      guard entered.pass() else { return nil }
      return Result { try wiring.container.resolve((any ChildP).self).parent != nil }
    }
    // Released once the other thread waits for the child (or has one).
    wiring.awaitWaiter(on: wiring.childCell, unless: { other.done })
    proceed.open()
    let sawParent = try #require(other.join() ?? nil).get()
    let child = try #require(wirer.join()).get()
    #expect(sawParent)
    #expect(child.parent != nil)
    if scope != .weak {
      #expect(wiring.tally.childMade.load(ordering: .relaxed) == 1)
      #expect(wiring.tally.parentMade.load(ordering: .relaxed) == 1)
    }
  }

  /// Which thread closes the wait between a parent's factory (wanting the
  /// child) and the child's handler (wanting the parent).
  enum Closer: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The handler asks for the parent while the factory already waits
    /// for the child: the handler's thread wakes the factory's with the
    /// child it is wiring.
    case handler
    /// The factory asks for the child while the handler already waits
    /// for the parent: the factory's thread takes the child itself.
    case factory

    var testDescription: String { rawValue }
  }

  /// A parent made on one thread and its child wired on another need each
  /// other: neither a cycle error nor a hang, but one pair, wired.
  @Test(arguments: Scope.exclusive, Closer.allCases)
  func twoThreadsWiringOnePairGetOnePair(scope: Scope, closer: Closer) throws {
    let wiring = Wiring(scope)
    let parentStarted = Gate()
    let childStarted = Gate()
    let proceed = Gate()
    wiring.tally.beforeChild.withLock {
      $0 = {
        parentStarted.open()
        _ = (closer == .handler ? childStarted : proceed).pass()
      }
    }
    wiring.tally.beforeWiring.withLock {
      $0 = {
        childStarted.open()
        if closer == .handler { _ = proceed.pass() }
      }
    }
    let parentThread = Background { Result { try wiring.container.resolve((any ParentP).self) } }
    guard parentStarted.pass() else {
      Issue.record("the parent's factory never ran")
      return
    }
    let childThread = Background { Result { try wiring.container.resolve((any ChildP).self) } }
    guard childStarted.pass() else {
      Issue.record("the child's handler never ran")
      return
    }
    // One side now waits for what the other, held, is making.
    switch closer {
    case .handler: wiring.awaitWaiter(on: wiring.childCell, unless: { parentThread.done })
    case .factory: wiring.awaitWaiter(on: wiring.parentCell, unless: { childThread.done })
    }
    proceed.open()
    // A cycle error, if either got one, fails the test with its report.
    let parent = try #require(parentThread.join()).get()
    let child = try #require(childThread.join()).get()
    #expect(parent.child === child)
    #expect(child.parent === parent)
    #expect(wiring.tally.childMade.load(ordering: .relaxed) == 1)
    #expect(wiring.tally.parentMade.load(ordering: .relaxed) == 1)
  }

  /// Unforced: many rounds of eight threads asking for either end at
  /// once. Every request gets the one pair, wired.
  @Test(arguments: Scope.exclusive)
  func everyRequestUnderContentionGetsThePairWired(scope: Scope) throws {
    for _ in 0..<200 {
      let wiring = Wiring(scope)
      let seen = Locked<[ObjectIdentifier?]>([])
      DispatchQueue.concurrentPerform(iterations: 8) { index in
        let parent =
          index.isMultiple(of: 2)
          ? try? wiring.container.resolve((any ParentP).self)
          : try? wiring.container.resolve((any ChildP).self).parent
        seen.withLock { $0.append(parent.map { ObjectIdentifier($0) }) }
      }
      let parent = try wiring.container.resolve((any ParentP).self)
      let seenAll = seen.withLock { $0 }
      #expect(seenAll == Array(repeating: ObjectIdentifier(parent), count: 8))
      #expect(parent.child.parent === parent)
      #expect(wiring.tally.childMade.load(ordering: .relaxed) == 1)
      if seenAll.contains(where: { $0 != ObjectIdentifier(parent) }) { return }
    }
  }

  /// A handler that throws leaves nothing stored: the next request makes
  /// the instance again instead of getting one half wired.
  @Test(arguments: Scope.exclusive)
  func aHandlerThatThrowsStoresNothing(scope: Scope) throws {
    struct Refused: Error {}
    let attempts = Atomic<Int>(0)
    let container = Container()
    let entry = container.register(Child.self) { _ in Child() }
      .initCompleted { _, _ in
        if attempts.add(1, ordering: .relaxed).newValue == 1 { throw Refused() }
      }
    scope.apply(entry)
    #expect(throws: ResolutionError.self) { try container.resolve(Child.self) }
    let made = try container.resolve(Child.self)
    #expect(try container.resolve(Child.self) === made)
    #expect(attempts.load(ordering: .relaxed) == 2)
  }
}
