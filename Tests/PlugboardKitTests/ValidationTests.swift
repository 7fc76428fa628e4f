import PlugboardAnalysis
import PlugboardKit
import Testing

/// `container.check(profile:)` and `validate(profile:)` find what
/// `plugboard check` finds in a graph, in its words, without resolving
/// anything: the host's tests (`CheckTests`, `CardinalityCheckTests`)
/// check the same texts through a deployment.
@Suite struct ValidationTests {
  protocol Gateway: Sendable {}
  struct Stripe: Gateway {}
  final class Checkout: Sendable {}
  final class Basket: Sendable {}
  protocol Command: Sendable {}
  struct Plain: Command {}

  private let gateway = _typeName((any Gateway).self, qualified: true)

  @Test func aMissingDependencyIsReportedWithItsChain() throws {
    let container = Container()
    container.register(Basket.self, file: "Shop/Basket.swift", line: 3) { _ in Basket() }
      .dependsOn(Checkout.self)
    container.register(Checkout.self, file: "Shop/Checkout.swift", line: 7) { _ in Checkout() }
      .dependsOn((any Gateway).self)

    let error = try #require(throws: ValidationError.self) { try container.validate() }
    let finding = try #require(error.errors.first)
    #expect(error.errors.count == 1)
    #expect(finding.kind == .missingDependency)
    #expect(finding.missingKey == ServiceKey((any Gateway).self))
    #expect(
      finding.lines == [
        "error: Checkout needs Gateway, which nothing registers",
        "",
        "What went wrong:",
        "  \(gateway) is a dependency declared at Shop/Checkout.swift:7, and no loaded plugin registers it.",
        "",
        "Chain:",
        "  Basket  (registered at Shop/Basket.swift:3)",
        "  → Checkout  (registered at Shop/Checkout.swift:7)",
        "  → Gateway  (✗ not registered)",
        "",
        "Action:",
        "  Register Gateway in a plugin the deployment loads, for example "
          + "container.register((any Gateway).self) { r in ... }, or correct the dependency declared at "
          + "Shop/Checkout.swift:7.",
      ])
    #expect(error.description.hasSuffix("check: 1 error, 0 warnings; the graph is broken"))
  }

  @Test func aCycleIsReported() throws {
    let container = Container()
    container.register(Basket.self, file: "Shop/Basket.swift", line: 3) { _ in Basket() }
      .dependsOn(Checkout.self)
    container.register(Checkout.self, file: "Shop/Checkout.swift", line: 7) { _ in Checkout() }
      .dependsOn(Basket.self)

    let error = try #require(throws: ValidationError.self) { try container.validate() }
    let finding = try #require(error.errors.first)
    #expect(finding.kind == .cycle)
    #expect(finding.title == "dependency cycle: Basket → Checkout → Basket")
    #expect(
      finding.explanation == [
        "Each of these services needs the next, so resolving any of them never finishes:",
        "  Basket → Checkout, declared at Shop/Basket.swift:3",
        "  Checkout → Basket, declared at Shop/Checkout.swift:7",
      ])
    #expect(finding.chainTitle == "Cycle")
    #expect(
      finding.chain.map(\.text).last == "Basket  (registered at Shop/Basket.swift:3  ✗ cycle closes here)")
  }

  @Test func aCaptiveDependencyIsAWarningThatDoesNotThrow() throws {
    let container = Container()
    container.register(Checkout.self, file: "Shop/Checkout.swift", line: 7) { _ in Checkout() }
      .inObjectScope(.container).dependsOn(Basket.self)
    container.register(Basket.self, file: "Shop/Basket.swift", line: 3) { _ in Basket() }
      .inObjectScope(.transient).dependsOn()

    try container.validate()
    let report = container.check()
    #expect(report.isValid)
    #expect(report.warnings.map(\.kind) == [.captiveDependency])
    #expect(
      report.warnings.first?.title == "captive dependency: Checkout (container) holds Basket (transient)")
  }

  @Test func aCardinalityViolationIsReportedAsCheckReportsIt() throws {
    let container = Container()
    let line = #line + 1
    container.extensionPoint((any Command).self, cardinality: .atLeastOne)

    let error = try #require(throws: ValidationError.self) { try container.validate() }
    let finding = try #require(error.errors.first)
    #expect(finding.kind == .extensionPointCardinality)
    #expect(finding.title == "extension point Command needs at least one contribution; it has none")
    #expect(
      finding.explanation == [
        "\(_typeName((any Command).self, qualified: true)) is declared an extension point needing at least one "
          + "contribution at \(#fileID):\(line).",
        "No loaded plugin contributes to it.",
      ])

    container.contribute((any Command).self) { _ in Plain() }.dependsOn()
    try container.validate()
  }

  @Test func theProfileDecidesWhichRegistrationsTakePartWithoutChangingTheContainer() throws {
    let container = Container()
    container.register((any Gateway).self, file: "Shop/Stripe.swift", line: 5) { _ in Stripe() }
      .dependsOn().inProfiles("live")
    container.register(Checkout.self, file: "Shop/Checkout.swift", line: 7) { _ in Checkout() }
      .dependsOn((any Gateway).self)

    try container.validate(profile: "live")
    let report = container.check(profile: "mock")
    #expect(report.profile == "mock")
    #expect(
      report.errors.first?.explanation == [
        "\(gateway) is a dependency declared at Shop/Checkout.swift:7, and no loaded plugin registers it.",
        "Gateway is registered only for profile 'live' (at Shop/Stripe.swift:5); the active profile is 'mock'.",
      ])
    #expect(report.lines.last == "check: 1 error, 0 warnings; the graph is broken in profile 'mock'")
    // Checked as if the profile were active; the container is unchanged.
    #expect(container.activeProfile == nil)
    #expect(!container.check().isValid)
    container.activeProfile = "live"
    #expect(container.check().isValid)
  }

  /// The in-process check sees what `plugboard check` sees of async
  /// registrations, and of contributions excluded by configuration.
  @Test func aSynchronousDependencyOnAnAsyncRegistrationAndAnExclusionAreSeen() throws {
    let container = Container()
    container.register(Checkout.self) { _ async in Checkout() }.dependsOn()
    container.register(Basket.self) { _ in Basket() }.dependsOn(Checkout.self)
    let kinds = container.check().findings.map(\.kind)
    #expect(kinds == [.synchronousDependencyOnAsync])

    let menu = Container()
    menu.extensionPoint((any Command).self, cardinality: .atLeastOne)
    let only = menu.contribute((any Command).self, name: "only") { _ in Plain() }.dependsOn()
    #expect(menu.check().isValid)
    menu.excludeContribution(only.key, reason: "excluded by the test")
    let finding = try #require(menu.check().findings.first)
    #expect(finding.kind == .extensionPointCardinality)
    #expect(
      finding.explanation.last == "  Command contribution \"only\" at \(only.site): excluded by the test")
    #expect(finding.explanation.dropLast().last == "Left out by configuration:")
  }

  @Test func anAssemblerValidatesItsContainer() throws {
    struct ShopAssembly: Assembly {
      func assemble(container: Container) throws {
        container.register(Checkout.self) { _ in Checkout() }.dependsOn((any Gateway).self)
      }
    }
    let assembler = try Assembler([ShopAssembly()])
    #expect(throws: ValidationError.self) { try assembler.validate(profile: nil) }
    #expect(assembler.check().errors.map(\.kind) == [.missingDependency])
  }
}
