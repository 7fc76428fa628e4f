import Foundation
import PlugboardTestSupport
import Synchronization
import Testing

@testable import PlugboardKit

/// `registerPerArguments`: one instance per distinct arguments (one
/// `ChatRoom` per room id), made once per arguments across threads, and
/// reset and disposed as other kept instances are.
@Suite struct PerArgumentsTests {
  final class ChatRoom: Sendable {
    let id: String
    let serial: Int
    init(id: String, serial: Int) {
      self.id = id
      self.serial = serial
    }
  }
  final class Hub: Sendable {}

  /// A container serving one `ChatRoom` per room id, counting those made
  /// and naming those disposed.
  final class Rooms: Sendable {
    let container = Container()
    let made = Atomic(0)
    let disposed = Mutex<[String]>([])

    @discardableResult
    func register(_ body: @escaping @Sendable (String) -> Void = { _ in }) -> ServiceEntry<ChatRoom> {
      container.registerPerArguments(ChatRoom.self) { (_, id: String) in
        body(id)
        return ChatRoom(id: id, serial: self.made.add(1, ordering: .relaxed).newValue)
      }
      .onDispose { room in self.disposed.withLock { $0.append(room.id) } }
    }

    func room(_ id: String) throws -> ChatRoom { try container.resolve(ChatRoom.self, argument: id) }
  }

  @Test func theSameIdGetsTheSameRoomAndAnotherIdAnother() throws {
    let rooms = Rooms()
    rooms.register()
    let lobby = try rooms.room("lobby")
    #expect(lobby.id == "lobby")
    #expect(try rooms.room("lobby") === lobby)
    let games = try rooms.room("games")
    #expect(games.id == "games")
    #expect(games !== lobby)
    #expect(try rooms.room("games") === games)
    #expect(rooms.made.load(ordering: .relaxed) == 2)
  }

  @Test func aPlainContainerRegistrationStillKeepsTheFirstArgumentsInstance() throws {
    let container = Container()
    container.register(ChatRoom.self) { (_, id: String) in ChatRoom(id: id, serial: 0) }
      .inObjectScope(.container)
    #expect(try container.resolve(ChatRoom.self, argument: "lobby").id == "lobby")
    #expect(try container.resolve(ChatRoom.self, argument: "games").id == "lobby")
  }

  @Test func severalArgumentsAreOneKey() throws {
    let container = Container()
    let made = Atomic(0)
    container.registerPerArguments(String.self) { (_, room: String, shard: Int) in
      "\(room)#\(shard)@\(made.add(1, ordering: .relaxed).newValue)"
    }
    #expect(try container.resolve(String.self, arguments: "lobby", 1) == "lobby#1@1")
    #expect(try container.resolve(String.self, arguments: "lobby", 2) == "lobby#2@2")
    #expect(try container.resolve(String.self, arguments: "lobby", 1) == "lobby#1@1")
  }

  @Test func noInstanceIsPublishedForTheInlinedResolveToRead() throws {
    // A plugin compiled against an older Kit reads the record's lock-free
    // slot before anything else; were one stored there, it would hand
    // every room id that room.
    let rooms = Rooms()
    let entry = rooms.register()
    _ = try rooms.room("lobby")
    _ = try rooms.room("games")
    #expect(entry.record.sharedInstance == nil)
  }

  @Test(.blocking) func concurrentFirstResolvesOfOneIdMakeOneRoom() throws {
    let rooms = Rooms()
    let table = Mutex<ArgumentInstances?>(nil)
    let waited = Atomic(false)
    let entry = rooms.register { id in
      // The thread making the room holds it until another one waits for
      // it, so that the two first requests meet.
      guard let slot = table.withLock({ $0 })?.slot(for: [id]) else { return }
      let deadline = Date().addingTimeInterval(30)
      while ConstructionCoordinator.shared.waiterCount(for: ObjectIdentifier(slot)) == 0 {
        guard Date() < deadline else { return }
        sched_yield()
      }
      waited.store(true, ordering: .relaxed)
    }
    table.withLock { $0 = entry.record.argumentInstances }
    let first = InitCompletedPublicationTests.Background { Result { try rooms.room("lobby") } }
    let second = InitCompletedPublicationTests.Background { Result { try rooms.room("lobby") } }
    let one = try #require(first.join()).get()
    let other = try #require(second.join()).get()
    let didWait = waited.load(ordering: .relaxed)
    #expect(didWait)
    #expect(one === other)
    #expect(rooms.made.load(ordering: .relaxed) == 1)
  }

  @Test func aResetEmptiesEveryRoomAndDisposesEach() throws {
    let rooms = Rooms()
    rooms.register()
    let lobby = try rooms.room("lobby")
    _ = try rooms.room("games")
    rooms.container.resetObjectScope(.container)
    #expect(rooms.disposed.withLock { $0 } == ["games", "lobby"])
    let again = try rooms.room("lobby")
    #expect(again !== lobby)
    #expect(again.serial == 3)
  }

  @Test func aCustomScopesResetEmptiesTheRooms() throws {
    let session = CustomScope("session")
    let rooms = Rooms()
    rooms.register().inObjectScope(session)
    let lobby = try rooms.room("lobby")
    #expect(try rooms.room("lobby") === lobby)
    rooms.container.resetObjectScope(.container)
    #expect(try rooms.room("lobby") === lobby)
    rooms.container.resetObjectScope(session)
    #expect(rooms.disposed.withLock { $0 } == ["lobby"])
    #expect(try rooms.room("lobby") !== lobby)
  }

  @Test func disposingTheContainerDisposesEachRoomNewestFirst() async throws {
    let rooms = Rooms()
    rooms.register()
    rooms.container.register(Hub.self) { _ in Hub() }.inObjectScope(.container)
      .onDispose { _ in rooms.disposed.withLock { $0.append("hub") } }
    _ = try rooms.room("lobby")
    _ = try rooms.container.resolve(Hub.self)
    _ = try rooms.room("games")
    _ = try rooms.room("lobby")
    try await rooms.container.dispose()
    #expect(rooms.disposed.withLock { $0 } == ["games", "hub", "lobby"])
    _ = try rooms.room("lobby")
    #expect(rooms.made.load(ordering: .relaxed) == 3)
  }

  @Test func initCompletedRunsOncePerRoom() throws {
    let rooms = Rooms()
    let completed = Mutex<[String]>([])
    rooms.register().initCompleted { _, room in completed.withLock { $0.append(room.id) } }
    _ = try rooms.room("lobby")
    _ = try rooms.room("lobby")
    _ = try rooms.room("games")
    #expect(completed.withLock { $0 } == ["lobby", "games"])
  }

  @Test func aFailingFactoryKeepsNothingForItsId() throws {
    let container = Container()
    let fail = Atomic(true)
    container.registerPerArguments(Hub.self) { (_, id: String) in
      if fail.load(ordering: .relaxed) { throw Failure(reason: "offline") }
      return Hub()
    }
    let error = try #require(throws: ResolutionError.self) {
      try container.resolve(Hub.self, argument: "lobby")
    }
    #expect(error.description.contains("offline"))
    fail.store(false, ordering: .relaxed)
    let hub = try container.resolve(Hub.self, argument: "lobby")
    #expect(try container.resolve(Hub.self, argument: "lobby") === hub)
  }
}
