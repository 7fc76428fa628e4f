import PlugboardKit
import Testing

/// `@Inject` properties, filled from an explicit container.
@Suite struct InjectTests {
  protocol Logger: AnyObject { var lines: [String] { get } }
  final class ConsoleLogger: Logger { let lines = ["console"] }
  protocol Analytics: AnyObject {}
  final class Tracker: Analytics {}
  protocol Cache: AnyObject { var label: String { get } }
  final class InMemoryCache: Cache { let label = "memory" }
  final class DiskCache: Cache { let label = "disk" }

  class BaseScreen {
    @Inject var logger: any Logger
  }

  final class ProfileScreen: BaseScreen {
    @Inject var analytics: (any Analytics)?
    @Inject(default: InMemoryCache()) var cache: any Cache
    @Inject(name: "audit") var audit: any Logger
  }

  private func container(analytics: Bool, cache: Bool) -> Container {
    let container = Container()
    container.register((any Logger).self) { _ in ConsoleLogger() }
    container.register((any Logger).self, name: "audit") { _ in ConsoleLogger() }
    if analytics { container.register((any Analytics).self) { _ in Tracker() } }
    if cache { container.register((any Cache).self) { _ in DiskCache() } }
    return container
  }

  @Test func fillsRequiredOptionalDefaultedAndNamedPropertiesAndInheritedOnes() throws {
    let screen = try container(analytics: true, cache: true).injected(ProfileScreen())
    #expect(screen.logger.lines == ["console"])
    #expect(screen.audit.lines == ["console"])
    #expect(screen.analytics != nil)
    #expect(screen.cache.label == "disk")
  }

  @Test func optionalIsNilAndDefaultIsUsedWhenNothingIsRegistered() throws {
    let screen = try container(analytics: false, cache: false).injected(ProfileScreen())
    #expect(screen.analytics == nil)
    #expect(screen.cache.label == "memory")
  }

  @Test func aMissingRequiredDependencyThrowsTheSameReportAsResolve() throws {
    let empty = Container()
    let injected = #expect(throws: ResolutionError.self) { try empty.inject(into: ProfileScreen()) }
    let resolved = #expect(throws: ResolutionError.self) {
      try empty.resolve((any Logger).self, name: "audit")
    }
    #expect(injected?.description == resolved?.description)
    #expect(
      injected?.description.contains(
        "No registration for PlugboardKitTests.InjectTests.Logger named \"audit\"") == true)
  }

  @Test func readingBeforeInjectionThrowsThroughTheProjectedValue() {
    let screen = ProfileScreen()
    let error = #expect(throws: InjectionError.self) { try screen.$logger.value }
    #expect(
      error?.description
        == "@Inject property of type PlugboardKitTests.InjectTests.Logger was read before container.inject(into:) filled it"
    )
  }

  @Test func registeringWithInjectingDeclaresEachPropertyForChecks() throws {
    let container = Container()
    container.register(ProfileScreen.self, injecting: ProfileScreen.init)
    let info = try #require(container.registrations.first)
    let logger = ServiceKey((any Logger).self)
    #expect(info.dependencies == [ServiceKey((any Logger).self, name: "audit"), logger])
    #expect(info.optionalDependencies == [ServiceKey((any Analytics).self), ServiceKey((any Cache).self)])
  }

  @Test func registeringWithInjectingResolvesAFilledInstance() throws {
    let container = container(analytics: true, cache: false)
    container.register(ProfileScreen.self, injecting: ProfileScreen.init)
    let screen = try container.resolve(ProfileScreen.self)
    #expect(screen.logger.lines == ["console"])
    #expect(screen.analytics != nil)
    #expect(screen.cache.label == "memory")
  }

  /// The hole is reported through the registration, as for any factory.
  @Test func aHoleInAnInjectingRegistrationNamesTheChain() throws {
    let container = Container()
    container.register(ProfileScreen.self, injecting: ProfileScreen.init)
    let error = #expect(throws: ResolutionError.self) { try container.resolve(ProfileScreen.self) }
    #expect(
      error?.description == """
        error: cannot resolve PlugboardKitTests.InjectTests.ProfileScreen

        What went wrong:
          No registration for PlugboardKitTests.InjectTests.Logger named "audit".

        Chain:
          ProfileScreen  (registered at PlugboardKitTests/InjectTests.swift:89)
          → Logger named "audit"  (✗ not registered)

        Action:
          Register Logger in an assembly that is loaded, for example \
        container.register((any Logger).self, name: "audit") { r in ... }.
        """)
  }
}
