/// An ``Application`` that stops in its own time: asked to stop, it stops
/// accepting work, finishes what it has begun (drains), then returns.
///
/// A plain `Application` learns of a request to stop (SIGINT, SIGTERM)
/// through its task's cancellation, at once: every await in flight may
/// throw, a request half answered included. A `DrainingApplication` is
/// told instead through the ``StopRequest`` it is given, which says when
/// the stop was requested and how long it has (``StopRequest/deadline``);
/// its task is cancelled only when that time is up, and then the host
/// stops the services without waiting for it, as it does for any
/// application. `plugboard run` watches for SIGINT and SIGTERM for a
/// draining application even in a deployment without lifecycle hooks.
///
/// Implement ``run(arguments:stop:)``; `run(arguments:)` comes with it
/// (running with a stop that is never requested).
///
/// ```swift
/// struct Worker: DrainingApplication {
///   let queue: any JobQueue
///
///   func run(arguments: [String], stop: StopRequest) async throws -> Int32 {
///     // No new job once the stop is requested; the one in hand is finished.
///     while !stop.isRequested, let job = try await queue.next(until: stop) {
///       try await job.perform()
///     }
///     return 0
///   }
/// }
/// ```
public protocol DrainingApplication: Application {
  /// Runs the application with the arguments after `plugboard run … --`
  /// until it is done or `stop` is requested and it has drained, and
  /// returns the process exit status (0 for success). After a request to
  /// stop, `plugboard run` ends by the signal that asked it, whatever this
  /// returns.
  /// - Throws: anything; the host reports it and exits with status 1.
  func run(arguments: [String], stop: StopRequest) async throws -> Int32
}

extension DrainingApplication {
  /// Runs the application with a stop that nobody requests: as a test or
  /// another host that knows nothing of stopping would.
  public func run(arguments: [String]) async throws -> Int32 {
    try await run(arguments: arguments, stop: StopRequest(limit: .seconds(30)))
  }
}
