import Foundation
import PlugboardTestSupport
import Testing

/// Plugin configuration through the built `plugboard`: `check`'s findings
/// in every profile with their exact text, the configured plugin given its
/// values, and secrets never printed by any command.
@Suite(.blocking) struct ConfigurationCommandTests {
  private static let secret = "hunter2-secret"

  /// A manifest with the test plugin `Configured` (required `region`,
  /// required secret `password`, `retries` defaulting to 3).
  /// The manifest, readable by its owner alone (`mode`): it may hold the
  /// secret, of which `check` warns when others can read it.
  private func manifest(
    _ folder: TemporaryDirectory, entry: String = "", live: String = "{}", mock: String = "{}",
    mode: mode_t = 0o600
  ) throws -> String {
    let path = try folder.write(
      "plugins.json",
      #"""
      { "formatVersion": 1, \#(BuildProducts.rootsMember) "activeProfile": "live",
        "profiles": { "live": \#(live), "mock": \#(mock) },
        "plugins": [ { "name": "Configured", "path": "\#(BuildProducts.library("Configured"))"\#(entry) } ] }
      """#)
    #expect(chmod(path, mode) == 0)
    return path
  }

  /// A credentials folder (as systemd's `LoadCredential=` makes it) with
  /// `files` by name, each readable by its owner alone.
  private func credentials(_ files: [String: String]) throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    for (name, text) in files { #expect(chmod(try folder.write(name, text), 0o400) == 0) }
    return folder
  }

  private struct Reported: Equatable {
    var profile: String
    var findings: [[String]]
  }

  /// Each profile's findings as [kind, title, explanation…, suggestions…, action].
  private func check(_ manifest: String, environment: [String: String] = [:]) throws -> (
    ProcessResult, [Reported]
  ) {
    let result = try Subprocess.plugboard(
      ["check", "--json", "--manifest", manifest], environment: environment)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let reports = try #require(json["reports"] as? [[String: Any]])
    return (
      result,
      reports.map { report in
        let findings = (report["findings"] as? [[String: Any]] ?? []).filter {
          // Its only plugin registers no Application: not what these tests are about.
          $0["kind"] as? String != "missingApplication"
        }.map { finding in
          [finding["kind"] as? String ?? "?", finding["title"] as? String ?? "?"]
            + (finding["explanation"] as? [String] ?? []) + (finding["suggestions"] as? [String] ?? [])
            + [finding["action"] as? String ?? "?"]
        }
        return Reported(profile: report["profile"] as? String ?? "?", findings: findings)
      }
    )
  }

  @Test func checkReportsEachProblemInEachProfileWithItsFix() throws {
    let folder = try TemporaryDirectory()
    let manifest = try manifest(
      folder, entry: #", "config": { "password": "\#(Self.secret)" }"#,
      mock: #"{ "config": { "Configured": { "region": "eu", "retrys": 5, "password": 42 } } }"#)
    let (result, reports) = try check(manifest)
    #expect(result.status == 1)
    #expect(
      reports == [
        Reported(
          profile: "live",
          findings: [
            [
              "missingSetting",
              "plugin 'Configured' has no value for required setting 'region' in profile 'live'",
              "region (String, required): where the service runs",
              "Looked in, in order: PLUGBOARD_CONFIG_CONFIGURED_REGION, profiles.live.config.Configured.region, "
                + "plugins[0].config.region; none is set and the setting has no default.",
              "Set \"region\" in plugins[0].config (every profile) or in profiles.live.config.Configured "
                + "(this profile), or export PLUGBOARD_CONFIG_CONFIGURED_REGION.",
            ]
          ]),
        Reported(
          profile: "mock",
          findings: [
            [
              "settingType",
              "plugin 'Configured' setting 'password' has a value of the wrong type in profile 'mock'",
              "plugin 'Configured': setting 'password' (profiles.mock.config.Configured.password): expected a "
                + "string, found a number",
              "Give 'password' a string at profiles.mock.config.Configured.password.",
            ],
            [
              "unknownSetting",
              "plugin 'Configured' has no setting 'retrys' (profiles.mock.config.Configured.retrys) in profile 'mock'",
              "Plugin 'Configured' declares: region (String, required), password (String, required, secret), "
                + "retries (Int, default 3).",
              "retries",
              "Rename it to \"retries\" at profiles.mock.config.Configured.retrys.",
            ],
          ]),
      ])
    #expect(!result.stdout.contains(Self.secret))
    let text = try Subprocess.plugboard(["check", "--manifest", manifest])
    #expect(text.stdout.contains("Did you mean:\n  - retries"))
    #expect(!(text.stdout + text.stderr).contains(Self.secret))
  }

  @Test func aPluginAProfileLeavesOutIsCheckedForTypesAndKeysButNotForWhatIsMissing() throws {
    let folder = try TemporaryDirectory()
    let manifest = try manifest(
      folder, entry: #", "profiles": ["mock"]"#, live: #"{ "config": { "Configured": { "regoin": "x" } } }"#,
      mock: #"{ "config": { "Configured": { "region": "eu" } } }"#)
    let (result, reports) = try check(manifest)
    #expect(result.status == 1)
    #expect(reports.map(\.profile) == ["live", "mock"])
    #expect(reports[0].findings.map { $0[0] } == ["unknownSetting"])
    #expect(
      reports[0].findings.first?[1]
        == "plugin 'Configured' has no setting 'regoin' (profiles.live.config.Configured.regoin) in profile 'live'"
    )
    #expect(
      reports[0].findings.first?.last == "Rename it to \"region\" at profiles.live.config.Configured.regoin.")
    #expect(
      reports[1].findings.map { $0[1] } == [
        "plugin 'Configured' has no value for required setting 'password' in profile 'mock'"
      ])
  }

  @Test func aConfiguredPluginGetsItsValuesAndNoCommandPrintsASecret() throws {
    let folder = try TemporaryDirectory()
    let manifest = try manifest(
      folder, entry: #", "config": { "region": "us", "password": "\#(Self.secret)" }"#,
      mock: #"{ "config": { "Configured": { "region": "eu" } } }"#)
    let environment = ["PLUGBOARD_CONFIG_CONFIGURED_RETRIES": "7"]
    let list = try Subprocess.plugboard(
      ["list", "--manifest", manifest, "--profile", "mock"], environment: environment)
    #expect(list.status == 0)
    #expect(
      list.stdout.hasSuffix(
        """
          SETTING   TYPE    VALUE     FROM
          region    String  "eu"      profiles.mock.config.Configured.region
          password  String  <secret>  plugins[0].config.password
          retries   Int     7         environment variable PLUGBOARD_CONFIG_CONFIGURED_RETRIES

        """))
    let explain = try Subprocess.plugboard(
      ["explain", "Swift.Int", "--name", "retries", "--manifest", manifest], environment: environment)
    #expect(explain.stdout.contains("Settings of plugin 'Configured':"))
    #expect(explain.stdout.contains("password  String  <secret>  plugins[0].config.password"))
    var outputs = [list, explain]
    for arguments in [
      ["list", "--json"], ["check"], ["check", "--json"],
      ["explain", "Swift.String", "--name", "region", "--json"],
      ["graph", "--format", "json"], ["run"],
    ] {
      outputs.append(
        try Subprocess.plugboard(arguments + ["--manifest", manifest], environment: environment))
    }
    let wrong = try Subprocess.plugboard(
      ["run", "--manifest", manifest],
      environment: [
        "PLUGBOARD_CONFIG_CONFIGURED_RETRIES": "many", "PLUGBOARD_CONFIG_CONFIGURED_PASSWORD": Self.secret,
      ])
    #expect(wrong.status == 78)
    outputs.append(wrong)
    for output in outputs {
      #expect(!(output.stdout + output.stderr).contains(Self.secret))
    }
  }

  @Test func aMisconfiguredPluginFailsAtTheConfigureStageNamingEachProblem() throws {
    let folder = try TemporaryDirectory()
    let manifest = try manifest(folder, entry: #", "config": { "password": 1, "extra": true }"#)
    let result = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: configure: plugin 'Configured' (\(BuildProducts.library("Configured"))) is not configured "
          + "correctly: setting 'region' is required and has no value in profile 'live'; setting 'password' "
          + "(plugins[0].config.password): expected a string, found a number; setting 'extra' "
          + "(plugins[0].config.extra) is not declared by the plugin (plugboard check lists each with its fix; "
          + "see Docs/configuration.md)"
      ])
  }

  @Test func aVariableNamingNoDeclaredSettingIsAWarningWithASuggestion() throws {
    let folder = try TemporaryDirectory()
    let manifest = try manifest(folder, entry: #", "config": { "region": "us", "password": "p" }"#)
    let (result, reports) = try check(
      manifest, environment: ["PLUGBOARD_CONFIG_CONFIGURED_REGOIN": "eu", "PLUGBOARD_CONFIG_OTHER": "x"])
    #expect(result.status == 1)  // no Application: an error these tests leave aside
    for report in reports {
      #expect(
        report.findings == [
          [
            "unknownSettingVariable",
            "PLUGBOARD_CONFIG_CONFIGURED_REGOIN names no setting any plugin declares, so it is ignored",
            "A variable PLUGBOARD_CONFIG_<PLUGIN>_<SETTING> sets a plugin's setting: the plugin's and the "
              + "setting's names upper-cased, other characters than letters and digits as _.",
            "PLUGBOARD_CONFIG_CONFIGURED_REGION",
            "Correct the variable's name (see Docs/configuration.md), or unset it.",
          ],
          [
            "unknownSettingVariable",
            "PLUGBOARD_CONFIG_OTHER names no setting any plugin declares, so it is ignored",
            "A variable PLUGBOARD_CONFIG_<PLUGIN>_<SETTING> sets a plugin's setting: the plugin's and the "
              + "setting's names upper-cased, other characters than letters and digits as _.",
            "Correct the variable's name (see Docs/configuration.md), or unset it.",
          ],
        ])
    }
  }

  /// A file of the credentials folder names its variable as an environment
  /// variable would: one naming no declared setting is warned of as the
  /// variable is, naming the file and the folder, with the did-you-mean.
  @Test func aCredentialNamingNoDeclaredSettingIsAWarningWithASuggestion() throws {
    let folder = try TemporaryDirectory()
    let manifest = try manifest(folder, entry: #", "config": { "region": "us" }"#)
    let secrets = try credentials(["PLUGBOARD_CONFIG_CONFIGURED_PASWORD": Self.secret])
    let (result, reports) = try check(manifest, environment: ["CREDENTIALS_DIRECTORY": secrets.path])
    #expect(result.status == 1)  // no Application, no password: errors these tests leave aside
    #expect(!result.stdout.contains(Self.secret))
    let expected: [String] = [
      "unknownSettingVariable",
      "the credential file PLUGBOARD_CONFIG_CONFIGURED_PASWORD in \(secrets.path) (CREDENTIALS_DIRECTORY) "
        + "names no setting any plugin declares, so it is ignored",
      "A file of the credentials folder (systemd's LoadCredential=) is named as the variable it sets: "
        + "PLUGBOARD_CONFIG_<PLUGIN>_<SETTING>, the plugin's and the setting's names upper-cased, other "
        + "characters than letters and digits as _.",
      "PLUGBOARD_CONFIG_CONFIGURED_PASSWORD",
      "Correct the credential's name (the name before the colon in LoadCredential=; see "
        + "Docs/configuration.md), or remove it.",
    ]
    for report in reports { #expect(report.findings.last == expected) }
  }

  /// The environment is as long as whoever starts plugboard makes it:
  /// past the first 100, stray variables are counted in one finding, and
  /// get no did-you-mean.
  @Test func manyStrayVariablesAreCountedPastTheListedOnes() throws {
    let folder = try TemporaryDirectory()
    let manifest = try manifest(folder, entry: #", "config": { "region": "us", "password": "p" }"#)
    var environment: [String: String] = [:]
    for index in 0..<1_000 { environment["PLUGBOARD_CONFIG_CONFIGURED_REGOIN\(index)"] = "eu" }
    let (_, reports) = try check(manifest, environment: environment)
    for report in reports {
      #expect(report.findings.count == 101)
      #expect(
        report.findings.first?.prefix(2) == [
          "unknownSettingVariable",
          "PLUGBOARD_CONFIG_CONFIGURED_REGOIN0 names no setting any plugin declares, so it is ignored",
        ])
      #expect(
        report.findings.last == [
          "unknownSettingVariable",
          "900 more PLUGBOARD_CONFIG_ variables name no setting any plugin declares, so they are ignored",
          "900 more problems not listed (plugboard lists the first 100).",
          "Correct or unset the variables listed above, then run plugboard check again.",
        ])
    }
  }

  /// A secret is best given in a file (every process the service starts
  /// inherits the environment): `…_FILE` names one, and
  /// systemd's credentials folder holds one per variable; either gives the
  /// setting its value, one final line break dropped.
  @Test func aSettingIsGivenByAFileOrACredential() throws {
    let folder = try TemporaryDirectory()
    let manifest = try manifest(folder, entry: #", "config": { "region": "us" }"#)
    let secrets = try TemporaryDirectory()
    let file = try secrets.write("password", Self.secret + "\n")
    #expect(chmod(file, 0o600) == 0)
    let (byFile, fileReports) = try check(
      manifest, environment: ["PLUGBOARD_CONFIG_CONFIGURED_PASSWORD_FILE": file])
    #expect(byFile.status == 1)  // no Application: an error these tests leave aside
    #expect(fileReports.map(\.findings) == [[], []])
    #expect(!byFile.stdout.contains(Self.secret))
    let credential = try secrets.write("PLUGBOARD_CONFIG_CONFIGURED_PASSWORD", Self.secret)
    #expect(chmod(credential, 0o400) == 0)
    let (_, credentialReports) = try check(manifest, environment: ["CREDENTIALS_DIRECTORY": secrets.path])
    #expect(credentialReports.map(\.findings) == [[], []])
  }

  /// A secret others can read where it is given is a warning, as ssh
  /// warns of a private key others can read: in a file, or in a manifest.
  @Test func aSecretOthersCanReadIsAWarning() throws {
    let folder = try TemporaryDirectory()
    let secrets = try TemporaryDirectory()
    let file = try secrets.write("password", Self.secret)
    #expect(chmod(file, 0o644) == 0)
    let byFile = try manifest(folder, entry: #", "config": { "region": "us" }"#)
    let (_, fileReports) = try check(byFile, environment: ["PLUGBOARD_CONFIG_CONFIGURED_PASSWORD_FILE": file])
    for report in fileReports {
      #expect(
        report.findings == [
          [
            "settingFile",
            "plugin 'Configured' has its secret setting 'password' where others can read it in profile "
              + "'\(report.profile)'",
            "PLUGBOARD_CONFIG_CONFIGURED_PASSWORD_FILE gives the file \(file), which group and others can read "
              + "(mode 0644, owner uid \(geteuid())).",
            "A secret setting's value is for the plugin alone: whoever can read where it is given has it too.",
            "Make the file readable by its owner alone (chmod go-r), or by a group only the service's user is in. "
              + "See Docs/configuration.md.",
          ]
        ])
    }
    let written = try manifest(
      folder, entry: #", "config": { "region": "us", "password": "\#(Self.secret)" }"#, mode: 0o640)
    let (result, manifestReports) = try check(written)
    #expect(!result.stdout.contains(Self.secret))
    for report in manifestReports {
      #expect(
        report.findings == [
          [
            "settingFile",
            "plugin 'Configured' has its secret setting 'password' where others can read it in profile "
              + "'\(report.profile)'",
            "Its value is written at plugins[0].config.password in the manifest \(written), which its group can "
              + "read (mode 0640, owner uid \(geteuid())).",
            "A secret setting's value is for the plugin alone: whoever can read where it is given has it too.",
            "Give the value through a file only you can read (PLUGBOARD_CONFIG_<PLUGIN>_<SETTING>_FILE, or "
              + "systemd's LoadCredential=) and remove it from the manifest, or chmod go-r \(written). See "
              + "Docs/configuration.md.",
          ]
        ])
    }
  }

  /// A setting file named through a link others can re-point is refused,
  /// though the file it leads to today is safe: re-pointed, any file root
  /// can read would become the setting.
  @Test func aSettingFileReachedThroughALinkOthersCanRepointIsAProblem() throws {
    let folder = try TemporaryDirectory()
    let manifest = try manifest(folder, entry: #", "config": { "region": "us" }"#)
    let secrets = try TemporaryDirectory()
    let file = try secrets.write("password", Self.secret)
    #expect(chmod(file, 0o600) == 0)
    let shared = secrets.path + "/shared"
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
    #expect(chmod(shared, 0o777) == 0)
    try FileManager.default.createSymbolicLink(atPath: shared + "/token", withDestinationPath: file)
    let (result, reports) = try check(
      manifest, environment: ["PLUGBOARD_CONFIG_CONFIGURED_PASSWORD_FILE": shared + "/token"])
    #expect(result.status == 1)
    let problem: String =
      "setting 'password': PLUGBOARD_CONFIG_CONFIGURED_PASSWORD_FILE gives the file \(shared)/token, which is "
      + "reached through the link \(shared)/token, which lies in the folder \(shared), which is writable by group "
      + "and others (mode 0777, owner uid \(geteuid())); anyone who can write there can replace the link, and so "
      + "the setting — chmod go-w \(shared)"
    for report in reports {
      #expect(report.findings.first?.dropFirst(2).first == problem)
    }
  }

  /// A file others can write is no source of a setting: it is a problem
  /// of the setting, not skipped.
  @Test func aSettingFileOthersCanWriteIsAProblem() throws {
    let folder = try TemporaryDirectory()
    let manifest = try manifest(folder, entry: #", "config": { "region": "us" }"#)
    let secrets = try TemporaryDirectory()
    let file = try secrets.write("password", Self.secret)
    #expect(chmod(file, 0o666) == 0)
    let environment = ["PLUGBOARD_CONFIG_CONFIGURED_PASSWORD_FILE": file]
    let (result, reports) = try check(manifest, environment: environment)
    #expect(result.status == 1)
    let problem: String =
      "setting 'password': PLUGBOARD_CONFIG_CONFIGURED_PASSWORD_FILE gives the file \(file), which is writable by "
      + "group and others (mode 0666, owner uid \(geteuid())); anyone who can write it can choose a setting of a "
      + "plugin — remove the write permission: chmod go-w \(file)"
    for report in reports {
      let expected: [String] = [
        "settingFile",
        "plugin 'Configured' is given a setting by a file it cannot use in profile '\(report.profile)'",
        problem,
        "A setting's value can come from a file (PLUGBOARD_CONFIG_<PLUGIN>_<SETTING>_FILE, or systemd's "
          + "credentials folder); a file that cannot be used is not skipped.",
        "Make the file readable, owned by root or you and writable by no one else, or unset the variable that "
          + "names it (see Docs/configuration.md).",
      ]
      #expect(report.findings.first == expected)
    }
    let run = try Subprocess.plugboard(["run", "--manifest", manifest], environment: environment)
    #expect(run.status == 78)
    #expect(run.stderr.contains(problem))
  }
}
