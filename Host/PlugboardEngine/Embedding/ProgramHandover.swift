import Synchronization

/// A program that embeds the host, between its bring-up and its
/// application: the phase its ``EmbeddedDeployment`` keeps until
/// ``ApplicationLaunch/run(arguments:hookTimeout:)`` hands it over, once.
/// A value the public API's copies of the deployment share, so behind a
/// lock.
final class ProgramHandover: Sendable {
  private let program: Mutex<ChildSession.ProgramRunning?>

  init(_ program: consuming ChildSession.ProgramRunning) {
    self.program = Mutex(program)
  }

  /// The application of `deployment` starts; nil when one started already.
  func handOverToApplication(of deployment: Deployment) -> ChildSession.ApplicationRunning? {
    guard let program = program.withLock({ $0.take() }) else { return nil }
    return program.handOverToApplication(of: deployment)
  }
}
