/// The program a deployment describes. `plugboard run` resolves the one
/// registered `Application` from the assembled container and runs it, so
/// the host needs no application types of its own.
///
/// Asked to stop (SIGINT, SIGTERM), `plugboard run` cancels the task `run`
/// runs in. An application that serves, and must finish what it has begun
/// before it returns, implements ``DrainingApplication`` instead: it is
/// told of the request and how long it has, and cancelled only then.
public protocol Application {
  /// Runs the application with the arguments after `plugboard run … --`,
  /// and returns the process exit status (0 for success).
  /// - Throws: anything; the host reports it and exits with status 1.
  func run(arguments: [String]) async throws -> Int32
}
