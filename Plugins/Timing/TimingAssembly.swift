import AppContracts
import PlugboardCompat
import PlugboardKit

/// A cross-cutting plugin: it times every call of the API client the
/// Networking plugin registers, without Networking knowing. The decorator
/// wraps whichever registration serves `APIClient` requests (the live one,
/// or the mock a profile chooses) and keeps its scope.
struct TimingAssembly: Assembly {
  func assemble(container: Container) throws {
    // Each call's duration is logged at debug level (`--log-level debug`);
    // the summary at the end names the calls only, the same on every run.
    // Written as code brought from another container reads, with
    // PlugboardCompat's spellings: `lifetime: .singleton` is
    // `.inObjectScope(.container)`, and `resolver~>` is `resolver.resolve()`.
    container.register(CallTimes.self, lifetime: .singleton) { resolver in CallTimes(logger: try resolver~>) }
      .dependsOn((any Logger).self)
      .onStop { times in print("Timing: \(times.summary)") }
    container.decorate((any APIClient).self, name: "timing") { resolver, client in
      TimedAPIClient(client, times: try resolver.resolve())
    }
    .dependsOn(CallTimes.self)
  }
}
