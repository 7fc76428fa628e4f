import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// The variables plugboard reads are treated by one rule in every command
/// that reads a deployment: a `PLUGBOARD_PROFILE` naming an undeclared
/// profile is misuse, and a `PLUGBOARD_CONFIG_` variable naming no
/// declared setting is a warning. Otherwise CI that checks before it runs
/// passes `check` and then fails `run`.
@Suite(.blocking) struct EnvironmentRuleTests {
  private static let commands: [[String]] = [
    ["run"], ["check"], ["list"], ["explain", "AuthService"], ["graph"],
  ]

  private func sample() throws -> (TemporaryDirectory, String) {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    return (folder, try folder.write("plugins.json", SampleManifest.text(analytics: analytics)))
  }

  /// `command` succeeded with the warning `title`: a finding of `check`'s,
  /// with `suggestion` among its did-you-mean, or the one line the other
  /// commands write on standard error.
  private func expectWarning(
    _ result: ProcessResult, of command: [String], title: String, suggesting suggestion: String
  ) {
    #expect(result.status == 0)
    if command[0] == "check" {
      #expect(result.stdout.contains("warning: \(title)"))
      #expect(result.stdout.contains("  - \(suggestion)"))
    } else {
      #expect(
        result.stderrLines == ["plugboard: \(command[0]): warning: \(title); did you mean \(suggestion)?"])
    }
  }

  @Test(arguments: commands)
  func anUndeclaredProfileInTheEnvironmentIsMisuseForEveryCommand(command: [String]) throws {
    let (folder, manifest) = try sample()
    let result = try Subprocess.plugboard(
      command + ["--manifest", manifest], environment: ["PLUGBOARD_PROFILE": "Mock"])
    #expect(result.status == ExitStatus.of(.misuse, command: command[0]))
    #expect(result.stdout == "")
    #expect(
      result.stderrLines == [
        "plugboard: PLUGBOARD_PROFILE=Mock: no profile 'Mock' is declared in \(manifest); did you mean 'mock'?",
        "Run 'plugboard \(command[0]) --help' for usage.",
      ])
    _ = folder
  }

  /// `check` still checks every profile when the variable names a declared one.
  @Test func checkChecksEveryProfileWhenTheVariableNamesADeclaredOne() throws {
    let (folder, manifest) = try sample()
    let result = try Subprocess.plugboard(
      ["check", "--manifest", manifest], environment: ["PLUGBOARD_PROFILE": "mock"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("2 profiles checked"))
    _ = folder
  }

  /// The profile `live` leaves AuthMock out: what it declares is learnt as
  /// `check` learns it (by probing it), so every command can tell.
  @Test(arguments: commands)
  func aVariableNamingNoSettingIsWarnedByEveryCommand(command: [String]) throws {
    let (folder, manifest) = try sample()
    let title =
      "PLUGBOARD_CONFIG_NETWORKING_BASEUR names no setting any plugin declares, so it is ignored"
    let result = try Subprocess.plugboard(
      command + ["--manifest", manifest, "--profile", "live"],
      environment: ["PLUGBOARD_CONFIG_NETWORKING_BASEUR": "x"])
    expectWarning(result, of: command, title: title, suggesting: "PLUGBOARD_CONFIG_NETWORKING_BASEURL")
    _ = folder
  }

  /// A credential file is read by every command as its variable is, so a
  /// misnamed one is warned of by every command too.
  @Test(arguments: commands)
  func aCredentialNamingNoSettingIsWarnedByEveryCommand(command: [String]) throws {
    let (folder, manifest) = try sample()
    let credentials = try TemporaryDirectory()
    #expect(chmod(try credentials.write("PLUGBOARD_CONFIG_NETWORKING_APITOKN", "token"), 0o400) == 0)
    let title =
      "the credential file PLUGBOARD_CONFIG_NETWORKING_APITOKN in \(credentials.path) (CREDENTIALS_DIRECTORY) "
      + "names no setting any plugin declares, so it is ignored"
    let result = try Subprocess.plugboard(
      command + ["--manifest", manifest, "--profile", "live"],
      environment: ["CREDENTIALS_DIRECTORY": credentials.path])
    expectWarning(result, of: command, title: title, suggesting: "PLUGBOARD_CONFIG_NETWORKING_APITOKEN")
    _ = folder
  }

  /// A variable that names a declared setting is used, not warned about.
  @Test(arguments: commands)
  func aVariableNamingADeclaredSettingIsNotWarned(command: [String]) throws {
    let (folder, manifest) = try sample()
    let result = try Subprocess.plugboard(
      command + ["--manifest", manifest, "--profile", "live"],
      environment: ["PLUGBOARD_CONFIG_NETWORKING_TIMEOUT": "5"])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(!result.stdout.contains("names no setting"))
    _ = folder
  }
}
