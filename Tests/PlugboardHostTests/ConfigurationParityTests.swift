import PlugboardKit
import Testing

@testable import PlugboardEngine

/// `plugboard check` and an in-process `Container.check` give one text for
/// a configuration finding: both come from Kit's `GraphAnalysis`.
@Suite struct ConfigurationParityTests {
  @Test func checkAndValidateGiveTheSameTextForAWrongType() throws {
    let folder = try TemporaryDirectory()
    let library = BuildProducts.library("Configured")
    let manifest = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, \#(BuildProducts.rootsMember) "plugins": [ { "name": "Configured", "#
        + #""path": "\#(library)", "config": { "region": "eu", "password": 42 } } ] }"#)
    let brought = try EmbeddedDeployment.bringUp(manifest: manifest, environment: [:])
    let checked = brought.check().findings.filter { $0.kind == .settingType }
    #expect(checked.map(\.title) == ["plugin 'Configured' setting 'password' has a value of the wrong type"])
    let configuration = try #require(brought.deployment.configuration(of: "Configured")).configuration
    let validated = Container().check(configurations: [configuration]).findings
    #expect(validated.map(\.lines) == checked.map(\.lines))
  }
}
