import Foundation
import PlugboardKit

/// A test-only plugin for the lifecycle tests: three services with start and
/// stop hooks, `Cache` → `Sessions` → `Pool`, registered in the opposite of
/// their dependency order (so registration order would start them wrongly),
/// and an application. Every hook and the application print a line to
/// standard output.
///
/// `LIFECYCLE_PROBE` (the tests set it) bends it: `fail-cache` makes Cache's
/// start hook throw, `hang-cache` print `Cache waits` and wait forever
/// (ignoring cancellation), `slow-cache` take 1.5 s; `hang-stop-cache`
/// makes Cache's stop hook print `Cache stopping` and wait forever;
/// `fail-stop-sessions` makes Sessions' stop hook throw, `fail-make-cache` Cache's factory;
/// `transient` adds a `.transient` service with a start hook (refused by `check` and `run`); `ignore-term` see below.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "LifecycleProbe", version: "0.0.1") { [Probe.assembly] }
}

struct LifecycleProbeAssembly: Assembly {
  func assemble(container: Container) throws {
    let mode = Probe.mode
    container.register(Cache.self) { resolver in try Cache(sessions: resolver.resolve(), mode: mode) }
      .inObjectScope(.container).dependsOn(Sessions.self)
      .onStart { _ in
        switch mode {
        case "fail-cache": throw ProbeFailure()
        case "hang-cache":
          // Deliberate: a hook that never returns and ignores cancellation.
          Probe.say("Cache waits")
          await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        case "slow-cache":
          // Slower than the test's stageTimeout, well within hookTimeout.
          try await Task.sleep(for: .milliseconds(1_500))
          Probe.say("start Cache")
        default: Probe.say("start Cache")
        }
      }
      .onStop { _ in
        guard mode == "hang-stop-cache" else { return Probe.say("stop Cache") }
        Probe.say("Cache stopping")
        await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
      }
    container.register(Sessions.self) { resolver in Sessions(pool: try resolver.resolve()) }
      .inObjectScope(.container).dependsOn(Pool.self)
      .onStart { _ in Probe.say("start Sessions") }
      .onStop { _ in
        guard mode != "fail-stop-sessions" else { throw ProbeFailure() }
        Probe.say("stop Sessions")
      }
    container.register(Pool.self) { _ in Pool() }
      .inObjectScope(.container).dependsOn()
      .onStart { $0.open() }
      .onStop { $0.close() }
    if mode == "transient" {
      container.register(Ticket.self) { _ in Ticket() }.dependsOn().onStart { _ in Probe.say("start Ticket") }
    }
    container.register((any Application).self) { _ in ProbeApplication() }.dependsOn(Cache.self)
  }
}

final class Pool: Sendable {
  func open() { Probe.say("start Pool") }
  func close() { Probe.say("stop Pool") }
}

final class Sessions: Sendable {
  let pool: Pool
  init(pool: Pool) { self.pool = pool }
}

final class Cache: Sendable {
  let sessions: Sessions
  init(sessions: Sessions, mode: String) throws {
    guard mode != "fail-make-cache" else { throw ProbeFailure() }
    self.sessions = sessions
  }
}

final class Ticket: Sendable {}

struct ProbeFailure: Error, CustomStringConvertible {
  var description: String { "the cache server refused the connection" }
}

/// `ignore-term`'s assembly: the application alone, no hooked service, and
/// the application ignores SIGTERM.
struct UnhookedProbeAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any Application).self) { _ in ProbeApplication(ignoresTermination: true) }.dependsOn()
  }
}

enum Probe {
  /// The assembly the mode asks for.
  static var assembly: any Assembly {
    mode == "ignore-term" ? UnhookedProbeAssembly() : LifecycleProbeAssembly()
  }

  /// The text of the file `LIFECYCLE_PROBE_FILE` names, else
  /// `LIFECYCLE_PROBE`, else no mode: the reload tests change the file
  /// between two bring-ups of one `plugboard run`.
  static var mode: String {
    let environment = ProcessInfo.processInfo.environment
    if let file = environment["LIFECYCLE_PROBE_FILE"],
      let text = try? String(contentsOfFile: file, encoding: .utf8)
    {
      return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    return environment["LIFECYCLE_PROBE"] ?? ""
  }

  /// One line on standard output, flushed: a test reading the pipe acts on it.
  static func say(_ line: String) {
    print(line)
    fflush(nil)
  }
}

/// Prints `application running`; with the argument `wait`, then prints
/// `ready` and waits until its task is cancelled (plugboard asked to stop);
/// with `stubborn`, prints `ready` and waits forever, ignoring cancellation;
/// with `environment NAME…`, prints `NAME=value` (or `NAME=(unset)`) for
/// each name and returns.
struct ProbeApplication: Application {
  var ignoresTermination = false

  func run(arguments: [String]) async throws -> Int32 {
    // Deliberate: plugin code that takes SIGTERM from plugboard.
    if ignoresTermination { signal(SIGTERM, SIG_IGN) }
    Probe.say("application running")
    if arguments.first == "environment" {
      // What plugin code sees of the variables the arguments name.
      for name in arguments.dropFirst() {
        Probe.say("\(name)=\(ProcessInfo.processInfo.environment[name] ?? "(unset)")")
      }
      return 0
    }
    guard arguments.first == "wait" || arguments.first == "stubborn" else { return 0 }
    Probe.say("ready")
    if arguments.first == "stubborn" {
      // Deliberate: an application that never returns and ignores cancellation.
      await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
    }
    while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
    Probe.say("application cancelled")
    return 0
  }
}
