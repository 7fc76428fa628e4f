import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

/// Tells systemd how a supervised `run` is doing (sd_notify(3), without
/// libsystemd): `READY=1` once the start hooks ran, `STOPPING=1` when an
/// orderly stop begins, a `STATUS=` line at each of those points and while
/// the plugins load, and `WATCHDOG=1` every half `WATCHDOG_USEC`.
///
/// The supervising parent sends, never the child: the parent is the
/// process systemd started, its main PID, and with `NotifyAccess=main`
/// (the default for `Type=notify`) systemd drops what any other process
/// sends. The child reports the two moments only it knows (``ProgressEvent``
/// `.ready` and `.stopping`); the parent learns of a stop request itself,
/// as it forwards the signal. The child runs with `NOTIFY_SOCKET`,
/// `WATCHDOG_USEC` and `WATCHDOG_PID` removed from its environment (see
/// ``hideFromPluginCode()``).
///
/// The watchdog is the parent's: it pings while it follows a child,
/// through bring-up (each stage bounded by the stage timeout), hooks and
/// the application, and through a reload, while it follows two. It shows
/// that plugboard's supervision is alive, not that the application makes
/// progress.
///
/// A reload (SIGHUP) says `RELOADING=1` with `MONOTONIC_USEC=`, then
/// `READY=1` once the new deployment took over or failed to come up, with
/// a `STATUS=` that says which (`Type=notify-reload`).
///
/// A message that cannot be sent (no such socket, a full queue) is
/// reported once, as a warning, and never stops the command: systemd
/// then times the service out by its own rules.
final class SystemdNotifier {
  /// The environment variables systemd's protocol is carried by.
  static let socketVariable = "NOTIFY_SOCKET"
  static let watchdogVariables = ("WATCHDOG_USEC", "WATCHDOG_PID")

  let address: String
  /// Half of `WATCHDOG_USEC`, in nanoseconds; nil without a watchdog.
  let pingInterval: Int64?
  private let command: String
  private var nextPing: Int64?
  private var warned = false
  private(set) var saidReady = false
  private(set) var saidStopping = false

  init(address: String, pingInterval: Int64?, command: String) {
    self.address = address
    self.pingInterval = pingInterval
    self.command = command
  }

  /// The notifier for `command` as systemd's environment asks: only `run`
  /// is a service, and only when `NOTIFY_SOCKET` is set (and not empty).
  static func fromEnvironment(command: String) -> SystemdNotifier? {
    guard command == Supervisor.runCommand, let address = variable(socketVariable), !address.isEmpty else {
      return nil
    }
    return SystemdNotifier(
      address: address,
      pingInterval: pingInterval(
        microseconds: variable(watchdogVariables.0), pid: variable(watchdogVariables.1), ownPID: getpid()),
      command: command)
  }

  /// Half the watchdog's interval in nanoseconds, when `WATCHDOG_USEC`
  /// holds a positive number of microseconds and `WATCHDOG_PID` is absent
  /// or this process's (systemd sets it to say which process is watched;
  /// a variable inherited from further up names another).
  static func pingInterval(microseconds: String?, pid: String?, ownPID: pid_t) -> Int64? {
    guard let microseconds, let value = Int64(microseconds), value > 0 else { return nil }
    if let pid, Int32(pid) != ownPID { return nil }
    return value.multipliedReportingOverflow(by: 500).partialValue
  }

  private static func variable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// In the child: plugin code and the application never see systemd's
  /// variables. What they sent would be dropped (they are not the main
  /// PID) or, with `NotifyAccess=all`, believed: a library that says
  /// `READY=1` as it loads would tell systemd the service is up before
  /// its start hooks ran. sd_notify's `unset_environment` does the same.
  /// Called right after the fork, while the child has one thread.
  static func hideFromPluginCode() {
    for name in [socketVariable, watchdogVariables.0, watchdogVariables.1] { unsetenv(name) }
  }

  /// The plugins are being loaded; `setAside` names the plugins a previous
  /// child's failure took out of this run.
  func loading(setAside: [String]) {
    // Escaped: a line break in a name would be a message of its own.
    let without =
      setAside.isEmpty
      ? "" : " without " + setAside.map { "'\(Terminal.sanitize($0))'" }.joined(separator: ", ")
    send("STATUS=Loading the plugins\(without)")
  }

  /// The start hooks ran and the application starts: systemd's start job
  /// is done.
  func ready() {
    guard !saidReady, !saidStopping else { return }
    saidReady = true
    send("READY=1\nSTATUS=Running")
  }

  /// The deployment did not come up, for `reason`: without it, systemd's
  /// status would still say it was loading the plugins, and only the
  /// journal would say why it failed. Nothing once it was ready: then the
  /// application's own end is the service's.
  func failedToComeUp(_ reason: String) {
    guard !saidReady, !saidStopping else { return }
    // Escaped: a line break would be a message of its own.
    send("STATUS=Failed to come up: " + Terminal.sanitize(reason))
  }

  /// A reload begins (`Type=notify-reload`): systemd holds the reload
  /// job open until ``reloaded()`` or ``reloadFailed(_:)``.
  /// `monotonicMicroseconds` is when it began, on `CLOCK_MONOTONIC`, as
  /// systemd asks, to tell this reload from an earlier one.
  func reloading(monotonicMicroseconds: Int64) {
    guard !saidStopping else { return }
    send("RELOADING=1\nMONOTONIC_USEC=\(monotonicMicroseconds)\nSTATUS=Reloading")
  }

  /// The new deployment is up and took over: the reload job is done.
  func reloaded() {
    guard !saidStopping else { return }
    send("READY=1\nSTATUS=Running")
  }

  /// The new deployment did not come up, for `reason`; the running one
  /// carries on. `READY=1` ends the reload job all the same: systemd's
  /// protocol has no word for a failed reload, and without it systemd
  /// would wait out its timeout for a reload that is over, while the
  /// service still serves. The status says what happened.
  func reloadFailed(_ reason: String) {
    guard !saidStopping else { return }
    // Escaped: a line break would be a message of its own.
    send("READY=1\nSTATUS=Reload failed: " + Terminal.sanitize(reason) + "; running the previous deployment")
  }

  /// An orderly stop begins: a request came, or the application ended.
  func stopping() {
    guard !saidStopping else { return }
    saidStopping = true
    send("STOPPING=1\nSTATUS=Stopping")
  }

  /// When the parent must wake to ping the watchdog, and the ping itself
  /// when its time has come; nil without a watchdog.
  func pingDeadline(now: Int64) -> Int64? {
    guard let pingInterval else { return nil }
    guard let due = nextPing else {
      // The first ping goes out at once: systemd's timer runs from the
      // start of the service, and bring-up has begun.
      send("WATCHDOG=1")
      nextPing = now + pingInterval
      return nextPing
    }
    guard due <= now else { return due }
    send("WATCHDOG=1")
    nextPing = now + pingInterval
    return nextPing
  }

  private func send(_ message: String) {
    let failure = address.withCString { address in
      var text = message
      return text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { plugboard_notify_send(address, $0.baseAddress, $0.count) }
      }
    }
    guard failure != 0, !warned else { return }
    warned = true
    StandardError.write(
      Terminal.sanitize(
        "plugboard: \(command): warning: could not notify systemd at \(Self.socketVariable)='\(address)': "
          + String(cString: strerror(failure)) + "; carrying on without telling it"),
      priority: .warning)
  }
}
