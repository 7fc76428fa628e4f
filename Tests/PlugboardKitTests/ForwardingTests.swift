import PlugboardKit
import Testing

/// One registration serving several types (Swinject's `implements` and
/// `forward`).
@Suite struct ForwardingTests {
  protocol Starter: AnyObject { func start() -> String }
  protocol Stopper: AnyObject { func stop() -> String }
  final class Engine: Starter, Stopper {
    func start() -> String { "started" }
    func stop() -> String { "stopped" }
  }

  @Test func implementsSharesTheInstancePerScope() throws {
    let container = Container()
    container.register(Engine.self) { _ in Engine() }.inObjectScope(.container)
      .implements(Starter.self, Stopper.self)
    let engine = try container.resolve(Engine.self)
    #expect(try container.resolve(Starter.self) === engine)
    #expect(try container.resolve(Stopper.self) === engine)
    #expect(try container.resolve(Starter.self).start() == "started")
  }

  @Test func forwardingAGraphRegistrationSharesWithinOneResolution() throws {
    final class Both {
      let starter: any Starter
      let stopper: any Stopper
      init(starter: any Starter, stopper: any Stopper) {
        self.starter = starter
        self.stopper = stopper
      }
    }
    let container = Container()
    let engine = container.register(Engine.self) { _ in Engine() }
    container.forward(Starter.self, to: engine)
    container.forward(Stopper.self, to: engine)
    container.autoregister(Both.self, initializer: Both.init)
    let first = try container.resolve(Both.self)
    let second = try container.resolve(Both.self)
    #expect(first.starter === first.stopper)
    #expect(first.starter !== second.starter)
  }

  @Test func forwardedTypesAreVisibleInRegistrations() throws {
    let container = Container()
    let engine = container.register(Engine.self, name: "main") { _ in Engine() }
      .implements(Starter.self, name: "main")
    let info = try #require(container.registrations.first { $0.key.service == TypeIdentity(Starter.self) })
    #expect(info.forwardsTo == engine.key)
    #expect(info.dependencies == [engine.key])
    #expect(info.key.name == "main")
    #expect(
      info.description
        == "PlugboardKitTests.ForwardingTests.Starter named \"main\" → Engine named \"main\" (forwarded) "
        + "at PlugboardKitTests/ForwardingTests.swift:47")
    #expect(try container.resolve(Starter.self, name: "main").start() == "started")
  }

  @Test func anInstanceThatIsNotOfTheForwardedTypeFails() throws {
    let container = Container()
    let cat = container.register(Cat.self) { _ in Cat(name: "Mimi") }
    container.forward(Starter.self, to: cat)
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Starter.self) }
    #expect(
      (error.underlyingError as? ForwardingError)?.description
        == "Cat is forwarded as Starter, but its instance is not a Starter: make the type conform, "
        + "or remove the forwarding")
  }
}
