import AppContracts
import Foundation
import PlugboardKit
import Synchronization
import Testing

// The Swift code of Docs/writing-a-plugin.md, compiled here so the guide
// cannot show code that does not build. Each region between
// `// guide: NAME` and `// end guide` appears verbatim in a ```swift block
// of the guide (GuideTests checks it); only the blocks' import lines are
// not repeated here.

// guide: contract
/// The weather, for whichever feature wants it.
public protocol WeatherService: Sendable {
  /// A one-line forecast for `city`.
  func forecast(for city: String) async throws -> String
}
// end guide

// guide: remote
/// Asks the weather API, through the deployment's HTTP transport.
struct RemoteWeatherService: WeatherService {
  let transport: any HTTPTransport

  func forecast(for city: String) async throws -> String {
    let response = try await transport.send(HTTPRequest(method: "GET", path: "/forecast/\(city)"))
    return String(decoding: response.body, as: UTF8.self)
  }
}
// end guide

// guide: fixture
/// Always the same answer, for offline work and tests.
struct FixtureWeatherService: WeatherService {
  func forecast(for city: String) async throws -> String {
    "Sunny in \(city)"
  }
}
// end guide

// guide: assembly
struct WeatherAssembly: Assembly {
  func assemble(container: Container) throws {
    // A closure factory: .dependsOn tells `plugboard check` what it resolves.
    container.register((any WeatherService).self) { resolver in
      RemoteWeatherService(transport: try resolver.resolve())
    }
    .inObjectScope(.container)
    .dependsOn((any HTTPTransport).self)
    // The mock beside it, under a name a profile can choose. autoregister
    // learns the dependencies from the initializer (here: none).
    container.autoregister((any WeatherService).self, name: "Mock") { FixtureWeatherService() }
      .inObjectScope(.container)
  }
}
// end guide

// guide: logger
struct LoggingWeatherAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any WeatherService).self) { resolver in
      let logger = try resolver.resolve((any Logger).self)
      logger.info("weather: asking the remote API")
      return RemoteWeatherService(transport: try resolver.resolve())
    }
    .dependsOn((any HTTPTransport).self, (any Logger).self)
  }
}
// end guide

// guide: consumer
/// A feature that shows the weather when a deployment has it.
struct WeatherBanner: Sendable {
  let weather: (any WeatherService)?
  let console: any AppConsole

  func show(for city: String) async {
    guard let weather, let forecast = try? await weather.forecast(for: city) else { return }
    console.write(forecast)
  }
}

struct BannerAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register(WeatherBanner.self) { resolver in
      WeatherBanner(weather: try resolver.resolveIfRegistered(), console: try resolver.resolve())
    }
    .dependsOn((any AppConsole).self)
    .optionallyDependsOn((any WeatherService).self)
  }
}
// end guide

// guide: feature
struct WeatherFeatureAssembly: Assembly {
  func assemble(container: Container) throws {
    // Added beside Login's, IssueList's and Shell's features; replaces none.
    container.contribute((any AppFeature).self, name: "weather", order: 30) { resolver in
      WeatherFeature(weather: try resolver.resolve())
    }
    .dependsOn((any WeatherService).self)
  }
}

/// The app's "Weather" section.
struct WeatherFeature: AppFeature {
  let weather: any WeatherService
  var title: String { "Weather" }

  func render(for user: User) async throws -> [String] {
    ["Weather: " + (try await weather.forecast(for: "London"))]
  }
}
// end guide

// guide: test
/// Answers every request with `body`, in place of the Networking plugin.
struct StubTransport: HTTPTransport {
  let body: String

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    HTTPResponse(status: 200, body: Array(body.utf8))
  }
}

struct StubTransportAssembly: Assembly {
  func assemble(container: Container) throws {
    container.autoregister((any HTTPTransport).self) { StubTransport(body: "Rain in Oslo") }
  }
}

@Suite struct WeatherAssemblyTests {
  @Test func servesTheRemoteServiceAndTheMockByName() async throws {
    let assembler = try Assembler([WeatherAssembly(), StubTransportAssembly()])
    let remote = try assembler.resolver.resolve((any WeatherService).self)
    #expect(try await remote.forecast(for: "Oslo") == "Rain in Oslo")
    let mock = try assembler.resolver.resolve((any WeatherService).self, name: "Mock")
    #expect(try await mock.forecast(for: "Oslo") == "Sunny in Oslo")
  }
}
// end guide

/// The guide's optional consumer, without and with the weather.
@Suite struct WeatherBannerTests {
  final class Lines: AppConsole {
    let written = Mutex<[String]>([])
    func write(_ line: String) { written.withLock { $0.append(line) } }
  }

  struct ConsoleAssembly: Assembly {
    let console: Lines
    func assemble(container: Container) throws {
      container.autoregister((any AppConsole).self) { [console] in console }
    }
  }

  @Test func theBannerDoesWithoutTheWeather() async throws {
    let console = Lines()
    let banner = try Assembler([BannerAssembly(), ConsoleAssembly(console: console)]).resolver
      .resolve(WeatherBanner.self)
    await banner.show(for: "Oslo")
    #expect(banner.weather == nil && console.written.withLock { $0 }.isEmpty)
  }

  @Test func theBannerShowsTheWeatherWhenItIsThere() async throws {
    let console = Lines()
    let assemblies: [any Assembly] = [
      BannerAssembly(), WeatherAssembly(), StubTransportAssembly(), ConsoleAssembly(console: console),
    ]
    await (try Assembler(assemblies).resolver.resolve(WeatherBanner.self)).show(for: "Oslo")
    #expect(console.written.withLock { $0 } == ["Rain in Oslo"])
  }
}

extension Database {
  /// The guide's connection, made by awaiting.
  static func connect() async throws -> Database {
    await Task.yield()
    return Database()
  }
}

final class UserStore: Sendable {
  let database: Database
  init(database: Database) { self.database = database }
}

/// Not Sendable: it lives on the main actor.
final class ProfileViewModel {
  let store: UserStore
  var title = ""
  init(store: UserStore) { self.store = store }
}

// guide: async-factory
struct StorageAssembly: Assembly {
  func assemble(container: Container) throws {
    // Awaited once: the .container instance is shared.
    container.register(Database.self) { _ in try await Database.connect() }
      .inObjectScope(.container)
      .dependsOn()
    container.register(UserStore.self) { r async throws in
      UserStore(database: try await r.resolve())
    }
    .dependsOn(Database.self)
  }
}
// end guide

// guide: main-actor
struct ProfileAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register(ProfileViewModel.self) { @MainActor r async throws in
      ProfileViewModel(store: try await r.resolve())
    }
    .dependsOn(UserStore.self)
  }
}

@MainActor func showProfile(from container: Container) async throws -> ProfileViewModel {
  let model = try await container.asyncResolver.resolve(ProfileViewModel.self)
  model.title = "Profile"
  return model
}
// end guide

final class Preferences: Sendable {}

/// Isolated to the main actor, initializer included.
@MainActor final class SettingsViewModel {
  let preferences: Preferences
  var isDark = false
  init(preferences: Preferences) { self.preferences = preferences }
}

// guide: main-actor-sync
struct SettingsAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register(Preferences.self) { _ in Preferences() }
      .inObjectScope(.container)
      .dependsOn()
    container.register(SettingsViewModel.self, on: MainActor.self) { r in
      SettingsViewModel(preferences: try r.resolve())
    }
    .dependsOn(Preferences.self)
  }
}

@MainActor func showSettings(from container: Container) throws -> SettingsViewModel {
  let model = try container.resolve(SettingsViewModel.self)
  model.isDark = true
  return model
}
// end guide

final class Session: Sendable {
  let user: String
  let store: UserStore
  init(user: String, store: UserStore) {
    self.user = user
    self.store = store
  }
}

protocol HealthCheck: Sendable {
  var name: String { get }
}

struct DatabaseCheck: HealthCheck {
  let database: Database
  var name: String { "database" }
}

// guide: async-forms
struct SessionAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register(Session.self) { r, user async throws in
      Session(user: user, store: try await r.resolve())
    }
    container.contribute((any HealthCheck).self, name: "database") { r async throws in
      DatabaseCheck(database: try await r.resolve())
    }
  }
}

func healthReport(from container: Container) async throws -> [String] {
  let resolver = container.asyncResolver
  let session = try await resolver.resolve(Session.self, arguments: "ada")
  let database = try await resolver.resolve(AsyncLazy<Database>.self)
  let checks = try await resolver.resolveAll((any HealthCheck).self)
  _ = try await database.instance  // made now, by its async factory
  return [session.user] + checks.map(\.name)
}
// end guide

/// The guide's async factories and main-actor view model, run.
@Suite struct AsyncGuideTests {
  @MainActor @Test func theViewModelIsMadeOnTheMainActor() async throws {
    let container = try Assembler([StorageAssembly(), ProfileAssembly()]).resolver
    let first = try await showProfile(from: container)
    let second = try await showProfile(from: container)
    #expect(first !== second && first.store.database === second.store.database)
    #expect(first.title == "Profile")
  }

  @MainActor @Test func theSettingsModelIsResolvedWithoutAwait() throws {
    let container = try Assembler([SettingsAssembly()]).resolver
    let first = try showSettings(from: container)
    #expect(first !== (try showSettings(from: container)) && first.isDark)
    try container.validate()
  }

  @Test func theAwaitedFormsServeAsyncRegistrations() async throws {
    let container = try Assembler([StorageAssembly(), SessionAssembly()]).resolver
    #expect(try await healthReport(from: container) == ["ada", "database"])
  }
}

// guide: decorator
struct CachingAssembly: Assembly {
  func assemble(container: Container) throws {
    // Wraps whichever registration serves WeatherService requests, in
    // whichever plugin made it; the WeatherService plugin does not know.
    container.decorate((any WeatherService).self, name: "cache") { _, weather in
      CachedWeatherService(weather)
    }
    .dependsOn()
  }
}

/// Answers each city from the first forecast it got for it.
final class CachedWeatherService: WeatherService {
  private let inner: any WeatherService
  private let forecasts = Mutex<[String: String]>([:])

  init(_ inner: any WeatherService) { self.inner = inner }

  func forecast(for city: String) async throws -> String {
    if let known = forecasts.withLock({ $0[city] }) { return known }
    let fresh = try await inner.forecast(for: city)
    forecasts.withLock { $0[city] = fresh }
    return fresh
  }
}
// end guide
