import AppContracts
import PlugboardKit

/// A cross-cutting plugin: it times every call of the API client the
/// Networking plugin registers, without Networking knowing. The decorator
/// wraps whichever registration serves `APIClient` requests (the live one,
/// or the mock a profile chooses) and keeps its scope.
struct TimingAssembly: Assembly {
  func assemble(container: Container) throws {
    // Each call's duration is logged at debug level (`--log-level debug`);
    // the summary at the end names the calls only, the same on every run.
    container.register(CallTimes.self) { resolver in CallTimes(logger: try resolver.resolve()) }
      .inObjectScope(.container).dependsOn((any Logger).self)
      .onStop { times in print("Timing: \(times.summary)") }
    container.decorate((any APIClient).self, name: "timing") { resolver, client in
      TimedAPIClient(client, times: try resolver.resolve())
    }
    .dependsOn(CallTimes.self)
  }
}
