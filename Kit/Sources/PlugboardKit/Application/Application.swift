/// The program a deployment describes. `plugboard run` resolves the one
/// registered `Application` from the assembled container and runs it, so
/// the host needs no application types of its own.
public protocol Application {
  /// Runs the application with the arguments after `plugboard run … --`,
  /// and returns the process exit status (0 for success).
  /// - Throws: anything; the host reports it and exits with status 1.
  func run(arguments: [String]) async throws -> Int32
}
