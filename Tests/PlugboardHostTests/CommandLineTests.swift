import Foundation
import PlugboardKit
import PlugboardTestSupport
import Testing

/// The built `plugboard` executable, run as a subprocess.
@Suite(.blocking) struct CommandLineTests {
  @Test func printsItsVersion() throws {
    let result = try Subprocess.plugboard(["--version"])
    #expect(result.status == 0)
    #expect(
      result.stdout
        == "plugboard 0.1.0 (PlugboardKit \(PlugboardBuild.loadedKitVersion), plugin ABI 1, Swift \(PlugboardBuild.compilerVersion))\n"
    )
  }

  @Test(arguments: [["--help"], ["run", "--help"], ["list", "--help"], ["help", "list"]])
  func printsHelpOnStandardOutput(arguments: [String]) throws {
    let result = try Subprocess.plugboard(arguments)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(result.stdout.contains("Usage: plugboard"))
    let statuses =
      arguments.contains("run") ? "Exit status of 'run'" : "Exit status: 0 healthy; 1 problems found"
    #expect(result.stdout.contains(statuses))
    if arguments.contains("list") { #expect(result.stdout.contains("--json")) }
  }

  @Test func rejectsMisuseWithStatusTwo() throws {
    let result = try Subprocess.plugboard(["lst"])
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(
      result.stderrLines == [
        "plugboard: unknown command 'lst'; did you mean 'list'?", "Run 'plugboard --help' for usage.",
      ])
    let option = try Subprocess.plugboard(["run", "--manifset", "x"])
    #expect(option.status == 64)  // run: misuse
    #expect(
      option.stderrLines == [
        "plugboard: unknown option '--manifset' for 'run'; did you mean '--manifest'?",
        "Run 'plugboard run --help' for usage.",
      ])
  }

  @Test func saysWhereItLookedForTheDefaultManifest() throws {
    let folder = try TemporaryDirectory()
    for command in ["run", "list"] {
      let result = try Subprocess.plugboard([command], in: folder.path)
      #expect(result.status == (command == "run" ? 78 : 1))
      #expect(result.exited)
      #expect(
        result.stderrLines.first
          == "plugboard: read manifest: no manifest at \(folder.path)/plugins.json (looked for the default "
          + "./plugins.json in the current directory; pass --manifest PATH to use another)")
    }
  }

  @Test func saysWhereItLookedForAGivenManifest() throws {
    let folder = try TemporaryDirectory()
    let result = try Subprocess.plugboard(["list", "--manifest", "deploy/p.json"], in: folder.path)
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: read manifest: no manifest at \(folder.path)/deploy/p.json (from --manifest deploy/p.json)"
      ])
  }

  @Test func reportsManifestProblemsWithTheirPlace() throws {
    let folder = try TemporaryDirectory()
    let path = try folder.write(
      "plugins.json", #"{ "formatVersion": 1, "plugins": [ { "name": "A", "path": 7, "enabld": false } ] }"#)
    let result = try Subprocess.plugboard(["run", "--manifest", path])
    #expect(result.status == 78)  // run: the deployment is broken
    #expect(
      result.stderrLines == [
        #"plugboard: read manifest: \#(path): plugins[0].enabld: unknown key; did you mean "enabled"?"#,
        "plugboard: read manifest: \(path): plugins[0].path: expected a string, found a number",
        "plugboard: the deployment has 2 problems; the application was not run",
      ])
  }
}
