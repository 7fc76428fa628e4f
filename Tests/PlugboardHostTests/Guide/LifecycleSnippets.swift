import PlugboardKit
import Synchronization
import Testing

@testable import PlugboardEngine

// The Swift code of Docs/lifecycle.md, compiled and run here so the page
// cannot show code that does not build. Each region between
// `// guide: NAME` and `// end guide` appears verbatim in a ```swift block
// of the page (LifecycleGuideTests checks it).

/// What the snippet's services did, in order.
private let journal = Mutex<[String]>([])

final class Database: Sendable {
  func connect() async throws { journal.withLock { $0.append("connect") } }
  func close() async { journal.withLock { $0.append("close") } }
}

final class HTTPServer: Sendable {
  let database: Database
  init(database: Database) { self.database = database }
  func listen() async throws { journal.withLock { $0.append("listen") } }
  func shutDown() async { journal.withLock { $0.append("shut down") } }
}

// guide: assembly
struct ServerAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register(HTTPServer.self) { r in HTTPServer(database: try r.resolve()) }
      .inObjectScope(.container)
      .dependsOn(Database.self)  // the edge that orders the hooks
      .onStart { server in try await server.listen() }
      .onStop { server in await server.shutDown() }
    container.register(Database.self) { _ in Database() }
      .inObjectScope(.container)
      .dependsOn()
      .onStart { database in try await database.connect() }
      .onStop { database in await database.close() }
  }
}
// end guide

/// What the per-request snippet's services did, in order; its own, since
/// the tests run in parallel.
private let requestJournal = Mutex<[String]>([])

final class Transaction: Sendable {
  init(on database: Database) {}
  func commit() async throws { requestJournal.withLock { $0.append("commit") } }
}

final class RequestLog: Sendable {
  func flush() throws { requestJournal.withLock { $0.append("flush") } }
}

final class OrderHandler: Sendable {
  init(transaction: Transaction, log: RequestLog) {}
  func handle(_ request: String) async throws -> String {
    requestJournal.withLock { $0.append("handle \(request)") }
    return "done"
  }
}

/// A connection the draining snippet's listener hands out.
struct Connection: Sendable {
  let name: String
}

protocol RequestHandler: Sendable {
  func answer(_ connection: Connection) async throws
}

/// A listener with two connections waiting, then none until it stops
/// accepting (`next()` returns nil from then on).
final class Listener: Sendable {
  private let state = Mutex<
    (waiting: [Connection], stopped: Bool, next: CheckedContinuation<Connection?, Never>?)
  >(
    ([Connection(name: "first"), Connection(name: "second")], false, nil))

  init(port: Int) throws {}

  func stopAccepting() {
    let next = state.withLock { state in
      state.stopped = true
      defer { state.next = nil }
      return state.next
    }
    next?.resume(returning: nil)
  }

  func next() async throws -> Connection? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Connection?, Never>) in
      let now: Connection?? = state.withLock { state in
        if !state.waiting.isEmpty { return state.waiting.removeFirst() }
        if state.stopped { return .some(nil) }
        state.next = continuation
        return nil
      }
      if let now { continuation.resume(returning: now) }
    }
  }
}

// guide: draining
struct Server: DrainingApplication {
  let handler: any RequestHandler

  func run(arguments: [String], stop: StopRequest) async throws -> Int32 {
    let listener = try Listener(port: 8080)
    // Called on the thread that requests the stop: only wake the loop.
    stop.onRequest { listener.stopAccepting() }
    try await withThrowingDiscardingTaskGroup { group in
      while let connection = try await listener.next() {  // nil once it stopped accepting
        group.addTask { try await handler.answer(connection) }
      }
    }  // returns once every connection accepted was answered
    return 0
  }
}
// end guide

/// Says which connection it answered.
struct AnsweringHandler: RequestHandler {
  let answered: AsyncStream<String>.Continuation
  func answer(_ connection: Connection) async throws { answered.yield(connection.name) }
}

@Suite struct LifecycleSnippets {
  /// The draining server answers what it accepted, and returns once the
  /// stop is requested.
  @Test func theDrainingServerReturnsOnceTheStopIsRequested() async throws {
    let (answered, continuation) = AsyncStream.makeStream(of: String.self)
    let stop = StopRequest(limit: .seconds(60))
    let server = Task {
      try await Server(handler: AnsweringHandler(answered: continuation)).run(arguments: [], stop: stop)
    }
    var answers = answered.makeAsyncIterator()
    // In either order: each is answered in a task of its own.
    let first = await answers.next()
    let second = await answers.next()
    #expect(Set([first, second]) == ["first", "second"])
    stop.request()
    #expect(try await server.value == 0)
  }

  /// Registered server first, the database still starts first and stops last.
  @Test func theDatabaseStartsBeforeTheServerAndStopsAfterIt() async throws {
    let container = Container()
    try ServerAssembly().assemble(container: container)
    let lifecycle = ServiceLifecycle(
      container: container, services: LifecyclePlan(container: container).services, limit: .seconds(60))
    try await lifecycle.start()
    #expect(await lifecycle.stop().isEmpty)
    #expect(journal.withLock { $0 } == ["connect", "listen", "shut down", "close"])
  }

  /// The transaction is made first (the handler asks for it first), so it
  /// is disposed last, after the log.
  @Test func aRequestScopeDisposesItsInstancesNewestFirst() async throws {
    let container = Container()
    container.register(Database.self) { _ in Database() }.inObjectScope(.container)
    let request = "order 7"
    // guide: request scope
    container.register(Transaction.self) { r in try Transaction(on: r.resolve(Database.self)) }
      .inObjectScope(.scoped)
      .onDispose { transaction in try await transaction.commit() }
    container.register(RequestLog.self) { _ in RequestLog() }
      .inObjectScope(.scoped)
      .onDispose { log in try log.flush() }
    container.register(OrderHandler.self) { r in
      OrderHandler(transaction: try r.resolve(), log: try r.resolve())
    }

    // Per request:
    let response = try await container.withScope { scope in
      try await scope.resolve(OrderHandler.self).handle(request)
    }
    // end guide
    #expect(response == "done")
    #expect(requestJournal.withLock { $0 } == ["handle order 7", "flush", "commit"])
  }
}
