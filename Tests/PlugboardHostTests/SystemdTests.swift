import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// `plugboard run` under systemd's notify protocol (`Type=notify`), against
/// a fake `NOTIFY_SOCKET`: the supervising parent, systemd's main PID,
/// says when the service is ready and when it stops, and pings the
/// watchdog (see Docs/operating.md, "Running under systemd").
@Suite(.serialized, .blocking) struct SystemdNotifyTests {
  static let loading = "STATUS=Loading the plugins"
  static let ready = "READY=1\nSTATUS=Running"
  static let stopping = "STOPPING=1\nSTATUS=Stopping"

  private func lifecycleDeployment() throws -> (TemporaryDirectory, String) {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([("LifecycleProbe", BuildProducts.library("LifecycleProbe"))])
    return (folder, manifest)
  }

  /// An application that ends by itself at once: loading, ready once the
  /// start hooks ran, stopping as the stop hooks begin, in that order; a
  /// path and an abstract socket alike. The child may report all of it
  /// and end within one wake of the parent: racy, so tried 20 times.
  @Test(arguments: [false, true]) func runSaysReadyAfterTheStartHooksAndStoppingAfterTheApplication(
    abstract: Bool
  ) throws {
    let (folder, manifest) = try lifecycleDeployment()
    defer { withExtendedLifetime(folder) {} }
    let socket = try NotifySocket(abstract: abstract)
    for attempt in 1...20 {
      let process = try GroupedProcess(
        ["run", "--manifest", manifest], environment: ["NOTIFY_SOCKET": socket.address])
      #expect(try process.finish() == .exited(0), "attempt \(attempt)")
      #expect(
        socket.messages(until: { $0 == Self.stopping }) == [Self.loading, Self.ready, Self.stopping],
        "attempt \(attempt)")
      #expect(socket.next(timeout: .zero) == nil, "attempt \(attempt)")
      #expect(
        process.stdoutLines == [
          "start Pool", "start Sessions", "start Cache", "application running", "stop Cache", "stop Sessions",
          "stop Pool",
        ], "attempt \(attempt)")
      #expect(process.stderrText == "", "attempt \(attempt)")
    }
  }

  /// SIGTERM to the parent during the application: STOPPING=1 at once,
  /// the stop hooks run, and plugboard ends by SIGTERM.
  @Test func aStopRequestSaysStopping() throws {
    let (folder, manifest) = try lifecycleDeployment()
    defer { withExtendedLifetime(folder) {} }
    let socket = try NotifySocket()
    let process = try GroupedProcess(
      ["run", "--manifest", manifest, "--", "wait"], environment: ["NOTIFY_SOCKET": socket.address])
    #expect(socket.messages(until: { $0 == Self.ready }) == [Self.loading, Self.ready])
    #expect(try process.waitForLine("ready"))
    process.signal(SIGTERM)
    #expect(socket.next() == Self.stopping)
    #expect(try process.finish() == .killed(SIGTERM))
    #expect(socket.next(timeout: .zero) == nil)
    #expect(process.stdoutLines == ProcessModelTests.stoppedInOrder)
    #expect(process.groupIsGone)
  }

  /// A plugin that traps while it assembles: the parent starts a new
  /// child without it and says so; the deployment, left without its
  /// only other plugin's requirement met or not, is never ready here.
  @Test func aPluginSetAsideIsNamedInTheStatus() throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([
      ("Healthy", BuildProducts.library("Healthy")),
      ("TrappingAssembly", BuildProducts.library("TrappingAssembly")),
    ])
    let socket = try NotifySocket()
    let result = try Subprocess.plugboard(
      ["run", "--manifest", manifest], environment: ["NOTIFY_SOCKET": socket.address])
    #expect(result.exited && result.status == ExitStatus.runBroken.rawValue)
    #expect(socket.next() == Self.loading)
    #expect(socket.next() == Self.loading + " without 'TrappingAssembly'")
    #expect(
      socket.next()
        == "STATUS=Failed to come up: the deployment is broken (exit status 78); the journal has the report")
    #expect(socket.next(timeout: .zero) == nil)
  }

  /// A deployment whose plugin crashes while the `Application` is resolved
  /// (no plugin can be set aside there): systemd's status names the crash,
  /// not "Loading the plugins", and nothing says ready.
  @Test func aCrashBeforeReadyIsTheStatus() throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([("TrappingFactory", BuildProducts.library("TrappingFactory"))])
    let socket = try NotifySocket()
    let result = try Subprocess.plugboard(
      ["run", "--manifest", manifest], environment: ["NOTIFY_SOCKET": socket.address])
    #expect(result.exited && result.status == ExitStatus.runCrashed.rawValue, "\(result.stderr)")
    #expect(socket.next() == Self.loading)
    let status = try #require(socket.next())
    let firstLine = try #require(result.stderrLines.first { $0.hasPrefix("plugboard: ") })
    #expect(firstLine.hasPrefix("plugboard: resolve Application: crashed with SIGILL"))
    #expect(
      status == "STATUS=Failed to come up: " + firstLine.dropFirst("plugboard: ".count) + " (exit status 70)")
    #expect(socket.next(timeout: .zero) == nil)
  }

  /// `WATCHDOG_USEC` of 0.2 s: `WATCHDOG=1` from the start, every 0.1 s,
  /// through bring-up and the application, until it stops.
  @Test func theWatchdogIsPingedAtHalfItsInterval() throws {
    let (folder, manifest) = try lifecycleDeployment()
    defer { withExtendedLifetime(folder) {} }
    let socket = try NotifySocket()
    let process = try GroupedProcess(
      ["run", "--manifest", manifest, "--", "wait"],
      environment: ["NOTIFY_SOCKET": socket.address, "WATCHDOG_USEC": "200000"])
    let watchdog = "WATCHDOG=1"
    var received = socket.messages(until: { $0 == Self.ready })
    // The first ping as soon as the parent follows its child.
    #expect(received.prefix(2) == [Self.loading, watchdog])
    // Three more pings after READY=1: the application's time is watched too.
    var after = 0
    received += socket.messages(until: { message in
      if message == watchdog { after += 1 }
      return after == 3
    })
    process.signal(SIGTERM)
    received += socket.messages(until: { $0 == Self.stopping })
    #expect(try process.finish() == .killed(SIGTERM))
    #expect(received.filter { $0 != watchdog } == [Self.loading, Self.ready, Self.stopping])
    #expect(after == 3)
  }

  /// Plugin code and the application run without systemd's variables: only
  /// the parent speaks for the service.
  @Test func pluginCodeDoesNotSeeTheNotifySocket() throws {
    let (folder, manifest) = try lifecycleDeployment()
    defer { withExtendedLifetime(folder) {} }
    let socket = try NotifySocket()
    let variables = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]
    let process = try GroupedProcess(
      ["run", "--manifest", manifest, "--", "environment"] + variables,
      environment: ["NOTIFY_SOCKET": socket.address, "WATCHDOG_USEC": "60000000", "WATCHDOG_PID": "1"])
    #expect(try process.finish() == .exited(0))
    #expect(process.stdoutLines.filter { $0.contains("=") } == variables.map { "\($0)=(unset)" })
    #expect(socket.messages(until: { $0 == Self.stopping }) == [Self.loading, Self.ready, Self.stopping])
  }

  /// `WATCHDOG_PID` naming another process: the watchdog is not this
  /// one's, and no ping is sent.
  @Test func aWatchdogForAnotherProcessIsNotPinged() throws {
    let (folder, manifest) = try lifecycleDeployment()
    defer { withExtendedLifetime(folder) {} }
    let socket = try NotifySocket()
    let process = try GroupedProcess(
      ["run", "--manifest", manifest],
      environment: ["NOTIFY_SOCKET": socket.address, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"])
    #expect(try process.finish() == .exited(0))
    #expect(socket.messages(until: { $0 == Self.stopping }) == [Self.loading, Self.ready, Self.stopping])
  }

  /// A socket nobody listens on: one warning, and the run goes on as if
  /// systemd were not there.
  @Test func aSocketThatCannotBeReachedIsOneWarning() throws {
    let (folder, manifest) = try lifecycleDeployment()
    defer { withExtendedLifetime(folder) {} }
    let missing = folder.path + "/no-such-socket"
    let result = try Subprocess.plugboard(
      ["run", "--manifest", manifest], environment: ["NOTIFY_SOCKET": missing, "WATCHDOG_USEC": "100000"])
    #expect(result.exited && result.status == 0)
    #expect(
      result.stderrLines == [
        "plugboard: run: warning: could not notify systemd at NOTIFY_SOCKET='\(missing)': No such file or "
          + "directory; carrying on without telling it"
      ])
  }

  /// The watchdog's interval from systemd's variables.
  @Test func theWatchdogIntervalIsHalfOfWatchdogUsec() {
    #expect(SystemdNotifier.pingInterval(microseconds: "200000", pid: nil, ownPID: 7) == 100_000_000)
    #expect(SystemdNotifier.pingInterval(microseconds: "200000", pid: "7", ownPID: 7) == 100_000_000)
    #expect(SystemdNotifier.pingInterval(microseconds: "200000", pid: "8", ownPID: 7) == nil)
    #expect(SystemdNotifier.pingInterval(microseconds: "0", pid: nil, ownPID: 7) == nil)
    #expect(SystemdNotifier.pingInterval(microseconds: "soon", pid: nil, ownPID: 7) == nil)
    #expect(SystemdNotifier.pingInterval(microseconds: nil, pid: nil, ownPID: 7) == nil)
  }
}
