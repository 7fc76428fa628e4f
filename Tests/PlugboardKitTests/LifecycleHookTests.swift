import PlugboardKit
import Synchronization
import Testing

/// `onStart` and `onStop`: what the container records, and that running a
/// hook resolves the registration's one instance.
@Suite struct LifecycleHookTests {
  private final class Connection: Sendable {
    let events = Mutex<[String]>([])
    func record(_ event: String) { events.withLock { $0.append(event) } }
  }

  private final class Plain: Sendable {}

  @Test func hooksAreListedInRegistrationOrderAndRunOnTheSharedInstance() async throws {
    let container = Container()
    container.register(Plain.self) { _ in Plain() }
    container.register(Connection.self, name: "primary") { _ in Connection() }
      .inObjectScope(.container)
      .onStart { $0.record("start") }
      .onStop { $0.record("stop") }
    container.register(Plain.self, name: "closing") { _ in Plain() }
      .inObjectScope(.container)
      .onStop { _ in }
    let services = container.lifecycleServices
    #expect(
      services.map(\.key) == [
        ServiceKey(Connection.self, name: "primary"), ServiceKey(Plain.self, name: "closing"),
      ])
    #expect(services.map(\.hasStartHook) == [true, false])
    #expect(services.map(\.hasStopHook) == [true, true])
    #expect(services.allSatisfy { $0.unsupportedReason == nil })

    try await services[0].start(in: container)
    try await services[0].stop(in: container)
    let connection = try container.resolve(Connection.self, name: "primary")
    #expect(connection.events.withLock { $0 } == ["start", "stop"])
  }

  @Test func aLaterHookReplacesAnEarlierOne() async throws {
    let container = Container()
    container.register(Connection.self) { _ in Connection() }
      .inObjectScope(.container)
      .onStart { $0.record("first") }
      .onStart { $0.record("second") }
    try await container.lifecycleServices[0].start(in: container)
    #expect(try container.resolve(Connection.self).events.withLock { $0 } == ["second"])
  }

  @Test func aThrowingHookThrowsItsError() async throws {
    struct Refused: Error {}
    let container = Container()
    container.register(Connection.self) { _ in Connection() }
      .inObjectScope(.container)
      .onStart { _ in throw Refused() }
    await #expect(throws: Refused.self) { try await container.lifecycleServices[0].start(in: container) }
  }

  @Test func onlyAContainerRegistrationWithoutArgumentsCanCarryHooks() {
    let container = Container()
    container.register(Plain.self, name: "graph") { _ in Plain() }.onStart { _ in }
    container.register(Plain.self, name: "transient") { _ in Plain() }.inObjectScope(.transient).onStop { _ in
    }
    container.register(Plain.self, name: "weak") { _ in Plain() }.inObjectScope(.weak).onStart { _ in }
    container.register(Plain.self, name: "session") { _ in Plain() }
      .inObjectScope(CustomScope("session")).onStart { _ in }
    container.register(Plain.self, name: "argument") { (_, _: Int) in Plain() }
      .inObjectScope(.container).onStart { _ in }
    #expect(
      container.lifecycleServices.map(\.unsupportedReason) == [
        "it is graph, so the instance started is not the one the application gets",
        "it is transient, so the instance started is not the one the application gets",
        "it is weak, so the instance started is not the one the application gets",
        "it is in the custom scope \"session\", whose instance can be reset and made again",
        "its factory takes arguments, which a hook cannot supply",
      ])
  }
}
