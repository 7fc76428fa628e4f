import PlugboardKit
import Testing

/// Typed reads of a plugin's configuration: values, defaults, optional
/// settings, the one conversion rule, and errors that carry their context
/// and never a secret.
@Suite struct ConfigurationTests {
  enum Settings {
    static let baseURL = Setting<String>("baseURL", default: "https://example.com", summary: "the API")
    static let retries = Setting<Int>("retries")
    static let ratio = Setting<Double>("ratio", default: 0.5)
    static let verbose = Setting<Bool>("verbose", default: false)
    static let timeout = Setting<Duration>("timeout", default: .seconds(10))
    static let token = Setting<String?>("token", secret: true)
    static let pin = Setting<Int>("pin", secret: true)
    static let all: [any DeclaredSetting] = [baseURL, retries, ratio, verbose, timeout, token, pin]
  }

  private func configuration(_ values: [String: ConfiguredValue]) -> PluginConfiguration {
    PluginConfiguration(plugin: "Net", profile: "mock", settings: Settings.all, values: values)
  }

  @Test func declarationsSayTypeDefaultRequiredAndSecret() {
    #expect(
      Settings.baseURL.declaration
        == SettingDeclaration(
          name: "baseURL", type: .string, defaultValue: .string("https://example.com"), required: false,
          summary: "the API"))
    #expect(Settings.retries.declaration == SettingDeclaration(name: "retries", type: .int, required: true))
    #expect(
      Settings.token.declaration
        == SettingDeclaration(name: "token", type: .string, required: false, secret: true))
    #expect(Settings.timeout.declaration.defaultValue == .number("10.0"))
  }

  @Test func readsConfiguredValuesWithTheirTypes() throws {
    let read = configuration([
      "baseURL": ConfiguredValue(.string("fixture://")), "retries": ConfiguredValue(.number("3")),
      "ratio": ConfiguredValue(.number("0.25")), "verbose": ConfiguredValue(.bool(true)),
      "timeout": ConfiguredValue(.number("1.5")), "token": ConfiguredValue(.string("s3cr3t")),
    ])
    #expect(try read[Settings.baseURL] == "fixture://")
    #expect(try read[Settings.retries] == 3)
    #expect(try read[Settings.ratio] == 0.25)
    #expect(try read[Settings.verbose] == true)
    #expect(try read[Settings.timeout] == .milliseconds(1500))
    #expect(try read[Settings.token] == "s3cr3t")
  }

  @Test func unsetSettingsReadAsTheirDefaultsOrNil() throws {
    let read = configuration(["retries": ConfiguredValue(.number("1"))])
    #expect(try read[Settings.baseURL] == "https://example.com")
    #expect(try read[Settings.ratio] == 0.5)
    #expect(try read[Settings.verbose] == false)
    #expect(try read[Settings.timeout] == .seconds(10))
    #expect(try read[Settings.token] == nil)
  }

  @Test func environmentTextReadsAsTheDeclaredType() throws {
    let variable = ConfigurationSource.environment(variable: "PLUGBOARD_CONFIG_NET_RETRIES")
    let read = configuration([
      "retries": ConfiguredValue(.text("7"), from: variable), "verbose": ConfiguredValue(.text("true")),
      "timeout": ConfiguredValue(.text("0.5")), "baseURL": ConfiguredValue(.text("42")),
    ])
    #expect(try read[Settings.retries] == 7)
    #expect(try read[Settings.verbose] == true)
    #expect(try read[Settings.timeout] == .milliseconds(500))
    #expect(try read[Settings.baseURL] == "42")
  }

  @Test(arguments: [
    (SettingType.int, SettingValue.number("30.0")), (.int, .number("3e1")), (.int, .string("30")),
    (.bool, .text("yes")), (.bool, .number("1")), (.double, .text("nan")), (.double, .text("inf")),
    (.duration, .number("-1")), (.duration, .number("31536001")), (.string, .number("1")),
    (.string, .bool(true)),
  ])
  func refusesWhatDoesNotReadAsTheType(type: SettingType, value: SettingValue) {
    #expect(!type.accepts(value))
  }

  @Test func aMissingRequiredSettingIsAnErrorNamingPluginSettingAndProfile() {
    #expect(
      throws: ConfigurationError(
        plugin: "Net", profile: "mock", setting: "retries", source: nil, reason: .missing)
    ) {
      try configuration([:])[Settings.retries]
    }
    let error = ConfigurationError(
      plugin: "Net", profile: "mock", setting: "retries", source: nil, reason: .missing)
    #expect(
      error.description == "plugin 'Net': setting 'retries' is required and has no value in profile 'mock'")
  }

  @Test func aWrongTypeNamesWhereTheValueCameFrom() throws {
    let source = ConfigurationSource.profile("mock", keyPath: "profiles.mock.config.Net.retries")
    let read = configuration(["retries": ConfiguredValue(.string("many"), from: source)])
    let error = try #require(throws: ConfigurationError.self) { try read[Settings.retries] }
    #expect(error.source == source)
    #expect(
      error.description
        == "plugin 'Net': setting 'retries' (profiles.mock.config.Net.retries): expected an integer, "
        + "found a string \"many\"")
    #expect(read.problems.first == error)
  }

  @Test func aSecretNeverAppearsInAnError() throws {
    let variable = ConfigurationSource.environment(variable: "PLUGBOARD_CONFIG_NET_PIN")
    let read = configuration([
      "retries": ConfiguredValue(.number("1")), "pin": ConfiguredValue(.text("hunter2"), from: variable),
    ])
    let error = try #require(throws: ConfigurationError.self) { try read[Settings.pin] }
    #expect(
      error.description
        == "plugin 'Net': setting 'pin' (environment variable PLUGBOARD_CONFIG_NET_PIN): expected an integer, "
        + "found text")
    #expect(!"\(error)".contains("hunter2"))
    #expect(read.problems.map(\.description) == [error.description])
    #expect(SettingValue.text("hunter2").shown(secret: true) == "<secret>")
  }

  @Test func readingAnUndeclaredSettingIsAnError() throws {
    let read = PluginConfiguration(plugin: "Net", settings: [Settings.baseURL])
    let error = try #require(throws: ConfigurationError.self) { try read[Settings.retries] }
    #expect(error.reason == .notDeclared)
    #expect(
      error.description
        == "plugin 'Net': setting 'retries' is read but not declared; add it to the settings passed to "
        + "PluginExport.descriptor(name:version:settings:assemblies:)")
  }

  @Test func aConfiguredBundleMakesItsAssembliesFromItsConfiguration() throws {
    struct Named: Assembly {
      let value: String
      func assemble(container: Container) { container.register(String.self) { _ in value }.dependsOn() }
    }
    let bundle = PluginBundle(settings: Settings.all.map(\.declaration)) { configuration in
      [Named(value: try configuration[Settings.baseURL])]
    }
    #expect(bundle.assemblies.isEmpty)
    #expect(
      bundle.settings.map(\.name) == ["baseURL", "retries", "ratio", "verbose", "timeout", "token", "pin"])
    try bundle.configure(with: configuration(["baseURL": ConfiguredValue(.string("fixture://"))]))
    let value: String = try Assembler(bundle.assemblies).resolver.resolve()
    #expect(value == "fixture://")
  }
}
