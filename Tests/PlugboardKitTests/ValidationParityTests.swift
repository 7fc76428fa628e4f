import PlugboardAnalysis
import PlugboardKit
import Testing

/// What `validate` reports that only `plugboard check` used to: hooks on
/// scopes that cannot carry them, a missing `Application` when asked, and
/// a plugin's settings against the values given.
@Suite struct ValidationParityTests {
  final class Cache: Sendable {}

  @Test func validateReportsLifecycleHooksOnAScopeThatCannotCarryThem() {
    let container = Container()
    container.register(Cache.self, file: "App/CacheAssembly.swift", line: 4) { _ in Cache() }
      .inObjectScope(.transient)
      .dependsOn()
      .onStart { _ in }
    let findings = container.check().findings.filter { $0.kind == .lifecycleHookScope }
    #expect(
      findings.map(\.lines) == [
        [
          "error: lifecycle hooks on Cache, which cannot carry them (transient)", "",
          "What went wrong:",
          "  Cache has a start or stop hook (onStart/onStop), but it is transient, so the "
            + "instance started is not the one the application gets. plugboard run starts and stops one "
            + "instance per registration, the one the application shares: only a .container registration "
            + "without arguments has one.",
          "  It is registered at App/CacheAssembly.swift:4.", "", "Chain:",
          "  Cache  (registered at App/CacheAssembly.swift:4  ✗ hooks on scope transient)",
          "", "Action:",
          "  Register Cache .inObjectScope(.container), or move the hooks to a .container "
            + "service that owns what must be started and stopped.",
        ]
      ])
    #expect(throws: ValidationError.self) { try container.validate() }
  }

  @Test func aMissingApplicationIsReportedWhenAsked() throws {
    let container = Container()
    container.register(Cache.self) { _ in Cache() }.dependsOn()
    #expect(container.check().isValid)
    let report = container.check(requireApplication: true)
    #expect(
      report.findings.map(\.title) == ["no Application is registered; `plugboard run` has nothing to run"])
    #expect(throws: ValidationError.self) { try container.validate(requireApplication: true) }
    container.register((any Application).self) { _ in Idle() }.dependsOn()
    try container.validate(requireApplication: true)
  }

  @Test func aPluginsSettingsAreCheckedAgainstTheValuesGiven() {
    let port = Setting<Int>("port", summary: "where it listens")
    let region = Setting<String>("region")
    let configuration = PluginConfiguration(
      plugin: "Server", profile: "live", settings: [port, region],
      values: ["port": ConfiguredValue(.string("eighty"), from: .manifest(keyPath: "plugins[0].config.port"))]
    )
    let findings = Container().check(configurations: [configuration]).findings
    #expect(
      findings.map(\.lines) == [
        [
          "error: plugin 'Server' setting 'port' has a value of the wrong type in profile 'live'", "",
          "What went wrong:",
          "  plugin 'Server': setting 'port' (plugins[0].config.port): expected an integer, found a string "
            + "\"eighty\"",
          "", "Action:", "  Give 'port' an integer at plugins[0].config.port.",
        ],
        [
          "error: plugin 'Server' has no value for required setting 'region' in profile 'live'", "",
          "What went wrong:", "  region (String, required)",
          "  Looked in, in order: the values given to the check; none is set and the setting has no default.",
          "",
          "Action:",
          "  Give \"region\" a value in plugin 'Server''s configuration, or a default in its declaration.",
        ],
      ])
  }

  struct Idle: Application {
    func run(arguments: [String]) async throws -> Int32 { 0 }
  }
}
