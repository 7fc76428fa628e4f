import PlugboardAnalysis
import PlugboardKit
import Testing

// The Swift code of Docs/checking.md, compiled and run here so the page
// cannot show code that does not build. Each region between
// `// guide: NAME` and `// end guide` appears verbatim in a ```swift block
// of the page (CheckingGuideTests checks it).

protocol PaymentGateway: Sendable {}
struct StripeGateway: PaymentGateway {}
struct FakeGateway: PaymentGateway {}
final class CheckoutService: Sendable {
  let gateway: any PaymentGateway
  init(gateway: any PaymentGateway) { self.gateway = gateway }
}

// guide: unit-test
struct CheckoutAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any PaymentGateway).self) { _ in StripeGateway() }
      .dependsOn().inProfiles("live")
    container.register((any PaymentGateway).self) { _ in FakeGateway() }
      .dependsOn().inProfiles("mock")
    container.autoregister(CheckoutService.self, initializer: CheckoutService.init(gateway:))
  }
}

@Suite struct CheckoutGraphTests {
  @Test(arguments: ["live", "mock"])
  func theGraphIsCompleteIn(profile: String) throws {
    let assembler = try Assembler([CheckoutAssembly()])
    // Throws a ValidationError, printed as `plugboard check` would print it.
    try assembler.validate(profile: profile)
  }
}
// end guide

enum CheckoutSettings {
  static let currency = Setting<String>("currency", summary: "the shop's currency")
}

// guide: unit-test-settings
@Test func theSettingsFitTheirDeclarations() throws {
  let assembler = try Assembler([CheckoutAssembly()])
  let settings = PluginConfiguration(
    plugin: "Checkout", profile: "live", settings: [CheckoutSettings.currency],
    values: ["currency": ConfiguredValue(.string("EUR"))])
  try assembler.validate(profile: "live", requireApplication: false, configurations: [settings])
}
// end guide

/// The snippet's check finds what is wrong when there is something.
@Suite struct CheckingSnippetTests {
  @Test func withoutAProfileNoGatewayServesTheCheckout() throws {
    let assembler = try Assembler([CheckoutAssembly()])
    let error = try #require(throws: ValidationError.self) { try assembler.validate(profile: nil) }
    #expect(error.errors.map(\.title) == ["CheckoutService needs PaymentGateway, which nothing registers"])
  }
}
