import PlugboardKit
import Testing

@testable import PlugboardEngine

/// `plugboard check` finds an `@Inject` property nothing can fill, when its
/// type is registered with `register(_:injecting:)`: the properties are
/// the registration's declared dependencies.
@Suite struct InjectHoleCheckTests {
  protocol Session: AnyObject {}
  protocol Analytics: AnyObject {}
  final class SignedIn: Session {}

  final class ProfileScreen {
    @Inject var session: any Session
    @Inject var analytics: (any Analytics)?
  }

  struct App: Application {
    func run(arguments: [String]) async throws -> Int32 { 0 }
  }

  @Test func aRequiredPropertyNothingRegistersIsAnError() throws {
    let line = #line + 3
    let found = try InProcessDeployment.findings { container in
      container.register((any Application).self) { _ in App() }.dependsOn(ProfileScreen.self)
      container.register(ProfileScreen.self, injecting: ProfileScreen.init)
    }
    #expect(found.map(\.title) == ["ProfileScreen needs Session, which nothing registers"])
    #expect(
      found.first?.explanation.first
        == "PlugboardHostTests.InjectHoleCheckTests.Session is a dependency declared at "
        + "PlugboardHostTests/InjectHoleCheckTests.swift:\(line) in plugin Sample, and no loaded plugin "
        + "registers it.")
  }

  /// An optional property may stay empty: no finding once the required
  /// one is registered.
  @Test func anOptionalPropertyIsNotAHole() throws {
    let found = try InProcessDeployment.findings { container in
      container.register((any Application).self) { _ in App() }.dependsOn(ProfileScreen.self)
      container.register(ProfileScreen.self, injecting: ProfileScreen.init)
      container.register((any Session).self) { _ in SignedIn() }.dependsOn()
    }
    #expect(found.map(\.title) == [])
  }
}
