import PlugboardKit
import Synchronization
import Testing

/// `StopRequest`, what a `DrainingApplication` learns of a request to stop:
/// when it came, until when the application has, and who is told.
@Suite struct StopRequestTests {
  @Test func aRequestIsRecordedOnceWithItsDeadline() throws {
    let stop = StopRequest(limit: .seconds(7))
    #expect(!stop.isRequested && stop.requestedAt == nil && stop.deadline == nil)
    let before = ContinuousClock.now
    #expect(stop.request())
    let requestedAt = try #require(stop.requestedAt)
    #expect(requestedAt >= before)
    #expect(stop.deadline == requestedAt + .seconds(7))
    #expect(!stop.request())
    #expect(stop.requestedAt == requestedAt)
  }

  @Test func eachHandlerIsCalledOnceWhenTheStopIsRequestedOrAtOnceAfter() {
    let stop = StopRequest(limit: .seconds(1))
    let calls = Mutex<[String]>([])
    stop.onRequest { calls.withLock { $0.append("before") } }
    #expect(calls.withLock { $0 }.isEmpty)
    stop.request()
    stop.request()
    stop.onRequest { calls.withLock { $0.append("after") } }
    #expect(calls.withLock { $0 } == ["before", "after"])
  }

  @Test func waitingEndsWithTheRequest() async {
    let stop = StopRequest(limit: .seconds(1))
    let waiting = Task { await stop.requested() }
    stop.request()
    await waiting.value
    #expect(stop.isRequested)
    // Requested already: returns at once.
    await stop.requested()
  }

  @Test func waitingEndsWhenTheTaskIsCancelledWithNoRequest() async {
    let stop = StopRequest(limit: .seconds(1))
    let waiting = Task { await stop.requested() }
    waiting.cancel()
    await waiting.value
    #expect(!stop.isRequested)
  }

  /// Without a `run(arguments:stop:)` caller, `run(arguments:)` runs with a
  /// stop nobody requests.
  @Test func aDrainingApplicationRunsAsAnyApplication() async throws {
    struct Draining: DrainingApplication {
      func run(arguments: [String], stop: StopRequest) async throws -> Int32 {
        stop.isRequested ? 1 : Int32(arguments.count)
      }
    }
    let application: any Application = Draining()
    #expect(try await application.run(arguments: ["a", "b"]) == 2)
  }
}
