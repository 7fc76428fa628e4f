import Foundation

/// Learns what a plugin that is not loaded would provide, by loading it in
/// a child process: the `plugboard` executable itself, run with the hidden
/// ``ProbeCommand``.
///
/// Loading a plugin runs its code (static initializers, its assemblies), so
/// a disabled plugin is never loaded into the checking process: if it
/// crashes, the child dies of the signal and the check reports that
/// ("plugin 'X' crashed while loading: signal 11") and goes on; if it hangs,
/// the child is killed after ``timeout`` ("plugin 'X' did not finish
/// loading within 10 s").
public struct PluginProbe: Sendable {
  /// The `plugboard` executable to run as the child.
  public let executable: String
  /// How long a child may take to load its plugin and report, after which
  /// it is killed and the plugin reported as hanging.
  public let timeout: Duration

  /// Ten seconds: loading a plugin takes milliseconds, so only a plugin
  /// stuck in its initializers comes near it.
  public static let defaultTimeout = Duration.seconds(10)

  public init(executable: String = PluginProbe.currentExecutable, timeout: Duration = defaultTimeout) {
    self.executable = executable
    self.timeout = timeout
  }

  /// This process's own executable.
  public static var currentExecutable: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
  }

  /// Probes `entry` of `manifest` in a child process.
  public func probe(_ entry: PluginEntry, of manifest: Manifest) -> ProbeResult {
    let path = manifest.absolutePath(of: entry)
    func failed(_ reason: String) -> ProbeResult { ProbeResult(entry: entry, outcome: .failed(reason)) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments =
      [ProbeCommand.name, entry.name, path] + ProbeCommand.options(entry, of: manifest)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return failed("plugin '\(entry.name)' could not be probed: cannot run \(executable): \(error)")
    }
    // Read to the end before waiting, so a large report cannot fill the
    // pipe and block the child; a child that neither reports nor exits in
    // time is killed (SIGKILL: a plugin stuck in an initializer may ignore
    // anything gentler).
    guard let data = BoundedRead.toEnd(of: output.fileHandleForReading, within: timeout) else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return failed("plugin '\(entry.name)' did not finish loading within \(Self.seconds(timeout)) s")
    }
    process.waitUntilExit()
    if process.terminationReason == .uncaughtSignal {
      return failed(
        "plugin '\(entry.name)' crashed while loading: signal \(process.terminationStatus)")
    }
    guard let report = try? JSONDecoder().decode(ProbeReport.self, from: data) else {
      return failed(
        "plugin '\(entry.name)' could not be probed: the child exited with status "
          + "\(process.terminationStatus) without a report")
    }
    if let problem = report.problem { return failed(problem) }
    return ProbeResult(entry: entry, outcome: .probed(report))
  }

  /// `10`, or `0.5`: a timeout as people write it.
  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    guard attoseconds != 0 else { return "\(seconds)" }
    return "\(Double(seconds) + Double(attoseconds) / 1e18)"
  }
}
