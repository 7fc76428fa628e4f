import AppContracts
import PlugboardKit
import Synchronization

/// An `APIClient` that records how long each call of the one it wraps took.
struct TimedAPIClient: APIClient {
  let inner: any APIClient
  let times: CallTimes

  init(_ inner: any APIClient, times: CallTimes) {
    self.inner = inner
    self.times = times
  }

  func createSession(username: String, password: String) async throws -> SessionPayload {
    try await times.measure("createSession") {
      try await inner.createSession(username: username, password: password)
    }
  }

  func openIssues(token: String) async throws -> [Issue] {
    try await times.measure("openIssues") { try await inner.openIssues(token: token) }
  }
}

/// The calls timed so far, in order; each one's duration goes to the log.
final class CallTimes: Sendable {
  private let calls = Mutex<[String]>([])
  private let logger: any Logger

  init(logger: any Logger) {
    self.logger = logger
  }

  /// Runs `call`, recording its duration under `name`, whether it returns
  /// or throws.
  func measure<Result>(_ name: String, _ call: () async throws -> Result) async throws -> Result {
    let clock = ContinuousClock()
    let start = clock.now
    defer {
      let duration = clock.now - start
      calls.withLock { $0.append(name) }
      logger.debug("Timing: \(name) took \(duration)")
    }
    return try await call()
  }

  /// `2 API calls timed (createSession, openIssues)`: the calls, without
  /// their durations, so that the sample's output is the same on every run.
  var summary: String {
    let names = calls.withLock { $0 }
    return "\(names.count) API call\(names.count == 1 ? "" : "s") timed (\(names.joined(separator: ", ")))"
  }
}
