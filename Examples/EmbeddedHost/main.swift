// An example of a program that embeds the Plugboard host: its own `main`,
// its own command line and its own logging, with PlugboardEngine (not the
// CLI) as a library. Docs/embedding.md walks through it; EmbeddedHostTests
// runs it on the sample deployment.
//
//   embedded-host [--manifest PATH] [--profile NAME] [--check] [--supervised [--reload-on-hangup]]
//                 [-- ARGUMENTS]

import Foundation
import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Every line this program writes itself begins with it.
let prefix = "[embedded-host] "

/// Writes `line` as it is to standard error. A write that fails (standard
/// error a pipe whose reader is gone, as after `2>&1 | head -1`; a full
/// disk) loses the line and nothing else: `FileHandle.write` would trap
/// there, ending the program by SIGILL instead of its exit status.
func say(_ line: String) {
  // Standard output is the application's; this program's own lines go to
  // standard error, after whatever the application printed so far.
  fflush(nil)
  var bytes = Array((line + "\n").utf8)[...]
  while !bytes.isEmpty {
    let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    if written < 0 && errno == EINTR { continue }
    guard written > 0 else { return }
    bytes = bytes.dropFirst(written)
  }
}

/// Writes `line` to standard error, after this program's prefix.
func log(_ line: String) { say(prefix + line) }

/// The command line: options until `--`, the application's arguments after.
struct Options {
  var manifest: String?
  var profile: String?
  var check = false
  var supervised = false
  /// With `--supervised`: SIGHUP reloads the deployment, as for `plugboard run`.
  var reloadsOnHangup = false
  var passthrough: [String] = []

  static let usage =
    "usage: embedded-host [--manifest PATH] [--profile NAME] [--check] [--supervised [--reload-on-hangup]] "
    + "[-- ARGUMENTS]"

  /// A command line this program does not understand.
  struct Misuse: Error {
    let message: String
  }

  /// The options `arguments` give, or what is wrong with them.
  static func parse(_ arguments: [String]) -> Result<Options, Misuse> {
    var options = Options()
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--":
        options.passthrough = Array(rest)
        return .success(options)
      case "--check": options.check = true
      case "--supervised": options.supervised = true
      case "--reload-on-hangup": options.reloadsOnHangup = true
      case "--manifest", "--profile":
        guard let value = rest.popFirst() else {
          return .failure(Misuse(message: "\(argument) needs a value"))
        }
        if argument == "--manifest" { options.manifest = value } else { options.profile = value }
      default: return .failure(Misuse(message: "unknown argument '\(argument)'"))
      }
    }
    return .success(options)
  }
}

/// Brings the deployment up, then checks it (`--check`) or runs it, and
/// returns the exit status.
func main(_ options: Options) async -> Int32 {
  // guide: bring-up
  let deployment: EmbeddedDeployment
  do throws(EmbeddedDeployment.BringUpError) {
    deployment = try EmbeddedDeployment.bringUp(manifest: options.manifest, profile: options.profile)
  } catch {
    for line in error.lines(prefix: prefix) { say(line) }
    return 78
  }
  log("profile '\(deployment.profile ?? "-")': \(deployment.loadedPlugins.joined(separator: ", "))")
  guard deployment.problems.isEmpty else {
    for problem in deployment.problems { log("\(problem)") }
    return 78
  }
  // end guide

  // guide: check
  if options.check {
    let report = deployment.check()
    for line in report.lines { print(line) }
    return report.healthy ? 0 : 1
  }
  // end guide

  // guide: run
  do throws(RunFailure) {
    let launch = try deployment.launch()
    for warning in launch.warnings { log("warning: \(warning)") }
    let status = try await launch.run(arguments: options.passthrough)
    log("the application ended with status \(status)")
    return status
  } catch {
    for line in error.lines(prefix: prefix, command: nil) { say(line) }
    return error.exitStatus
  }
  // end guide
}

// A closed pipe must end the program by its exit status, not by SIGPIPE.
signal(SIGPIPE, SIG_IGN)
switch Options.parse(Array(CommandLine.arguments.dropFirst())) {
case .failure(let misuse):
  log(misuse.message)
  log(Options.usage)
  exit(64)
case .success(let options):
  // guide: supervise
  // First, while the process has one thread: the parent supervises, the
  // child (nil) goes on. A process that already runs threads is refused.
  if options.supervised {
    do throws(EmbeddedDeployment.SupervisionError) {
      if let status = try EmbeddedDeployment.supervise(reloadsOnHangup: options.reloadsOnHangup) {
        exit(status)
      }
    } catch {
      say(error.line(prefix: prefix))
      exit(70)
    }
  }
  // end guide
  exit(await main(options))
}
