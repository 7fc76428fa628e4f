import PlugboardAnalysis
import PlugboardKit
import Testing

@testable import PlugboardEngine

/// An extension point may declare how many contributions it needs; `check`
/// reports one whose loaded contributions do not match, as an error.
@Suite struct CardinalityCheckTests {
  protocol Command: Sendable {}
  struct Plain: Command {}

  private func findings(_ assemble: (Container) -> Void) throws -> [Finding] {
    try InProcessDeployment.findings(plugin: "App", assemble).filter { $0.kind == .extensionPointCardinality }
  }

  @Test func atLeastOneWithNoneIsAnError() throws {
    let line = #line + 2
    let findings = try findings { container in
      container.extensionPoint((any Command).self, cardinality: .atLeastOne)
    }
    let finding = try #require(findings.first)
    #expect(findings.count == 1)
    #expect(finding.severity == .error)
    #expect(finding.title == "extension point Command needs at least one contribution; it has none")
    #expect(
      finding.explanation == [
        "\(_typeName((any Command).self, qualified: true)) is declared an extension point needing at least one "
          + "contribution at \(#fileID):\(line) in plugin App.",
        "No loaded plugin contributes to it.",
      ])
    #expect(finding.action.hasPrefix("Load a plugin that contributes Command in this profile"))
  }

  @Test func exactlyOneWithTwoNamesBoth() throws {
    var lines: [Int] = []
    let findings = try findings { container in
      container.extensionPoint((any Command).self, cardinality: .exactlyOne)
      lines.append(#line + 1)
      container.contribute((any Command).self, name: "b", order: 2) { _ in Plain() }.dependsOn()
      lines.append(#line + 1)
      container.contribute((any Command).self, name: "a", order: 1) { _ in Plain() }.dependsOn()
    }
    let finding = try #require(findings.first)
    #expect(finding.title == "extension point Command needs exactly one contribution; it has 2")
    #expect(
      Array(finding.explanation.dropFirst()) == [
        "Its contributions:",
        "  Command contribution \"a\" at \(#fileID):\(lines[1]) in plugin App",
        "  Command contribution \"b\" at \(#fileID):\(lines[0]) in plugin App",
      ])
  }

  @Test func aSatisfiedCardinalityIsNoFinding() throws {
    #expect(
      try findings { container in
        container.extensionPoint((any Command).self, cardinality: .exactlyOne)
        container.contribute((any Command).self) { _ in Plain() }.dependsOn()
      }.isEmpty)
    #expect(
      try findings { container in
        container.extensionPoint((any Command).self, cardinality: .any)
      }.isEmpty)
  }

  /// `plugboard check` and `container.validate()` share one analysis: a
  /// violation reads the same, word for word, in both.
  @Test func checkAndValidateReportTheSameViolation() throws {
    let deployment = try InProcessDeployment.make(plugin: "App") { container in
      container.extensionPoint((any Command).self, cardinality: .exactlyOne)
    }
    let checked = DeploymentChecker(deployment, environment: [:]).check().findings.filter {
      $0.kind == .extensionPointCardinality
    }
    let error = try #require(throws: ValidationError.self) { try deployment.container.validate() }
    #expect(checked.map(\.title) == ["extension point Command needs exactly one contribution; it has none"])
    #expect(error.errors.map(\.lines) == checked.map(\.lines))
  }
}
