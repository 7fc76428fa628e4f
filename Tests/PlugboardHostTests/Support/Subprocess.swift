import Foundation
import PlugboardTestSupport

/// A finished child process: how it ended and what it wrote.
struct ProcessResult: Sendable {
  let status: Int32
  /// True when it ended by exiting; false when a signal ended it.
  let exited: Bool
  let stdout: String
  let stderr: String

  var stderrLines: [String] {
    stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  var stdoutLines: [String] {
    stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }
}

enum Subprocess {
  /// Runs `executable` with `arguments` in `directory` to completion. Output
  /// goes to files, so a chatty child cannot fill a pipe and block.
  /// `environment` is added to this process's environment, and, when
  /// `stderrIdentity` names a variable, that variable set to the
  /// `device:inode` of the file standard error goes to (as systemd sets
  /// `JOURNAL_STREAM`).
  static func run(
    _ executable: String, _ arguments: [String], in directory: String? = nil,
    environment: [String: String] = [:], stderrIdentity: String? = nil
  ) throws -> ProcessResult {
    Blocking.requireBlockingThread("Running \(executable) to its end")
    let outputs = try TemporaryDirectory()
    let stdoutPath = outputs.path + "/stdout"
    let stderrPath = outputs.path + "/stderr"
    _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
    _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
    var environment = environment
    if let stderrIdentity {
      var status = stat()
      guard stat(stderrPath, &status) == 0 else { throw CocoaError(.fileNoSuchFile) }
      environment[stderrIdentity] = "\(status.st_dev):\(status.st_ino)"
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return ProcessResult(
      status: process.terminationStatus, exited: process.terminationReason == .exit,
      stdout: try String(contentsOfFile: stdoutPath, encoding: .utf8),
      stderr: try String(contentsOfFile: stderrPath, encoding: .utf8))
  }

  /// Runs `plugboard` with `arguments`.
  static func plugboard(
    _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
    stderrIdentity: String? = nil
  ) throws -> ProcessResult {
    try run(
      BuildProducts.plugboard, arguments, in: directory, environment: environment,
      stderrIdentity: stderrIdentity)
  }
}
