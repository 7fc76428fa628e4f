import PlugboardKit
import Testing

/// Circular wiring with `initCompleted`, as Swinject documents it.
@Suite struct CircularDependencyTests {
  final class Parent {
    let child: Child
    init(child: Child) { self.child = child }
  }
  final class Child {
    weak var parent: Parent?
  }
  struct Failure: Error {}

  @Test func swinjectsParentChildExample() throws {
    // Swinject's documented example: the child's handler resolves the
    // parent whose initializer is still waiting for the child.
    let container = Container()
    container.register(Parent.self) { r in try Parent(child: r.resolve()) }
    container.register(Child.self) { _ in Child() }
      .initCompleted(resolving: Parent.self) { r, child in child.parent = try r.resolve(Parent.self) }
    let parent = try container.resolve(Parent.self)
    #expect(parent.child.parent === parent)
  }

  @Test func propertyInjectionOfTheParentIntoItsChild() throws {
    final class Node {
      var next: Node2?
    }
    final class Node2 {
      let previous: Node
      init(previous: Node) { self.previous = previous }
    }
    let container = Container()
    container.register(Node.self) { _ in Node() }
      .initCompleted { r, node in node.next = try r.resolve() }
    container.register(Node2.self) { r in try Node2(previous: r.resolve()) }
    let node = try container.resolve(Node.self)
    #expect(node.next?.previous === node)
  }

  @Test func handlersRunInOrderOncePerInstance() throws {
    final class Log { var lines: [String] = [] }
    let container = Container()
    container.register(Log.self) { _ in Log() }.inObjectScope(.container)
      .initCompleted { _, log in log.lines.append("first") }
      .initCompleted { _, log in log.lines.append("second") }
    _ = try container.resolve(Log.self)
    #expect(try container.resolve(Log.self).lines == ["first", "second"])
  }

  @Test func aSingletonCycleWiredAfterInit() throws {
    final class Server {
      var client: Client?
    }
    final class Client {
      let server: Server
      init(server: Server) { self.server = server }
    }
    let container = Container()
    container.register(Server.self) { _ in Server() }.inObjectScope(.container)
      .initCompleted { r, server in server.client = try r.resolve() }
    container.register(Client.self) { r in try Client(server: r.resolve()) }.inObjectScope(.container)
    let server = try container.resolve(Server.self)
    #expect(server.client?.server === server)
    #expect(try container.resolve(Client.self) === server.client)
  }

  @Test func aTransientCycleThroughAHandlerIsStillACycle() throws {
    final class A {
      let b: B
      init(b: B) { self.b = b }
    }
    final class B {
      var a: A?
    }
    let container = Container()
    container.register(A.self) { r in try A(b: r.resolve()) }.inObjectScope(.transient)
    container.register(B.self) { _ in B() }.inObjectScope(.transient)
      .initCompleted { r, b in b.a = try r.resolve() }
    let error = try #require(throws: ResolutionError.self) { try container.resolve(A.self) }
    guard case .cycle(let path) = error.kind else {
      Issue.record("expected a cycle, got \(error.kind)")
      return
    }
    #expect(path.map(\.shortDescription) == ["A", "B", "A"])
  }

  @Test func aThrowingHandlerFailsTheResolution() throws {
    let container = Container()
    container.register(Child.self) { _ in Child() }.initCompleted { _, _ in throw Failure() }
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Child.self) }
    #expect(error.underlyingError is Failure)
    #expect(error.key == ServiceKey(Child.self))
  }

  @Test func resolvingAfterInitIsDeclaredAsADeferredEdge() throws {
    let container = Container()
    let entry = container.register(Child.self) { _ in Child() }
      .initCompleted(resolving: Parent.self) { r, child in child.parent = try r.resolve() }
    let info = try #require(container.registrations.first { $0.key == entry.key })
    #expect(info.deferredDependencies == [DeferredDependency(key: ServiceKey(Parent.self), kind: .afterInit)])
    #expect(info.dependencies == [])
  }
}
