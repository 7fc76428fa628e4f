import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// Every command that reports prints valid JSON on stdout, healthy or
/// broken, carrying its format version and matching its schema in
/// Docs/schemas/ field for field (see ``SchemaValidator`` for the subset
/// checked: every documented required field and type, every enum value,
/// and no undocumented field).
@Suite(.blocking) struct JSONDocumentTests {
  private static let validator = SchemaValidator(folder: BuildProducts.packageRoot + "/Docs/schemas")

  /// The commands and their schemas; `TYPE` stands for the type explained.
  private static let commands: [(arguments: [String], schema: String)] = [
    (["list", "--json"], "list.schema.json"),
    (["check", "--json"], "check.schema.json"),
    (["graph", "--format", "json"], "graph.schema.json"),
    (["explain", "AuthService", "--json"], "explain.schema.json"),
  ]

  /// Runs every command on `manifest` and returns each document, after
  /// checking it against its schema; `status` is the expected exit status.
  private func documents(_ manifest: String, status: Int32, profile: [String] = []) throws -> [JSONValue] {
    try Self.commands.map { command in
      let result = try Subprocess.plugboard(command.arguments + ["--manifest", manifest] + profile)
      #expect(result.exited)
      #expect(result.status == status, "\(command.arguments): \(result.stderr)")
      let document = try JSONParser.parse(result.stdout)
      #expect(document["formatVersion"] == .number("1"), "\(command.arguments)")
      #expect(document["healthy"] == .bool(status == 0), "\(command.arguments)")
      let violations = try Self.validator.violations(of: document, against: command.schema)
      #expect(violations == [], "\(command.arguments)")
      return document
    }
  }

  @Test func theSampleInEachProfileMatchesTheSchemas() throws {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    let manifest = try folder.write("plugins.json", SampleManifest.text(analytics: analytics))
    _ = try documents(manifest, status: 0)
    _ = try documents(manifest, status: 0, profile: ["--profile", "mock"])
  }

  /// A cycle and a plugin that does not exist: findings, problems, a tree
  /// with a cycle, all in their documented shapes; no action points at
  /// text "above" that JSON does not have.
  @Test func aBrokenDeploymentMatchesTheSchemas() throws {
    let names = ["Keychain", "Auth", "CyclicAPI", "Login", "IssueList", "Shell"]
    let deployment = try CheckedDeployment(
      names.map { .built($0) } + [CheckedDeployment.Plugin(name: "Gone", path: "libGone.so")])
    let documents = try documents(deployment.manifest, status: 1)
    #expect(!String(describing: documents).contains("above"))
    let check = try #require(documents.dropFirst().first)
    guard case .array(let reports)? = check["reports"],
      case .array(let findings)? = reports.first?["findings"]
    else {
      Issue.record("no findings in \(check)")
      return
    }
    #expect(
      findings.first?["action"]
        == .string(
          "Fix what stopped plugin 'Gone' at stage 'locate', as the explanation says; until then, nothing "
            + "the plugin registers is available."))
  }

  /// `check --json` printed nothing here before: a script got no verdict.
  @Test func aBrokenManifestStillGivesEachDocument() throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.write("plugins.json", #"{ "formatVersion": 1, "plugins": [ { "name": 3 } ] }"#)
    let documents = try documents(manifest, status: 1)
    for document in documents {
      guard case .array(let problems)? = document["problems"] else {
        Issue.record("no problems in \(document)")
        continue
      }
      #expect(problems.first?["stage"] == .string("read manifest"))
      #expect(
        problems.first?["message"]
          == .string("\(folder.path)/plugins.json: plugins[0].name: expected a string, found a number"))
    }
    #expect(documents[1]["errors"] == .number("2"))
  }

  /// A TYPE that names no type of a healthy deployment, or several, is
  /// still misuse (status 2, the message on stderr), and `--json` still
  /// gives a script a document to read: the finding, with what was meant.
  @Test(arguments: [
    (
      "AuthServise", "unknownType",
      "no type 'AuthServise' is registered in this deployment", ["AppContracts.AuthService"]
    ),
    ("Nope", "unknownType", "no type 'Nope' is registered in this deployment", []),
  ])
  func anUnknownTypeStillGivesADocument(query: String, kind: String, title: String, suggestions: [String])
    throws
  {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    let manifest = try folder.write("plugins.json", SampleManifest.text(analytics: analytics))
    let result = try Subprocess.plugboard(["explain", query, "--json", "--manifest", manifest])
    #expect(result.status == 2)
    #expect(result.stderrLines.last == "Run 'plugboard explain --help' for usage.")
    let document = try JSONParser.parse(result.stdout)
    #expect(document["healthy"] == .bool(false))
    #expect(document["type"] == .string(query))
    #expect(try Self.validator.violations(of: document, against: "explain.schema.json") == [])
    guard case .array(let findings)? = document["findings"], let finding = findings.first else {
      Issue.record("no finding in \(result.stdout)")
      return
    }
    #expect(finding["kind"] == .string(kind))
    #expect(finding["title"] == .string(title))
    #expect(finding["suggestions"] == .array(suggestions.map { .string($0) }))
  }

  /// The validator finds what it must: a missing field, a wrong type, a
  /// value outside an enum, a field the schema does not document.
  @Test func theValidatorRejectsWhatTheSchemaDoesNotAllow() throws {
    let document = try JSONParser.parse(
      #"{ "formatVersion": 2, "manifest": 1, "healthy": true, "errors": 0, "warnings": 0, "problems": "#
        + #"[ { "stage": "nowhere", "message": "m" } ], "extra": null }"#)
    #expect(
      try Self.validator.violations(of: document, against: "check.schema.json") == [
        "$: missing required \"reports\"",
        "$.formatVersion: expected number(\"1\"), found number(\"2\")",
        "$.manifest: expected string, found a number",
        "$.problems[0].stage: string(\"nowhere\") is not one of the documented values",
        "$: \"extra\" is not documented",
      ])
  }
}
