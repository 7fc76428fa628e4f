import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// `plugboard check` on deliberately broken deployments, through the built
/// binary: each report's exact text and the exit status (1 for errors, 0
/// when there are only warnings).
@Suite(.blocking) struct CheckCommandTests {
  typealias Plugin = CheckedDeployment.Plugin

  /// The sample without Keychain: Application → LoginFeature → AuthService
  /// → SecureStore, missing three links below the entry point.
  @Test func aMissingDependencyThreeLinksDeep() throws {
    let deployment = try CheckedDeployment(CheckedDeployment.live.filter { $0.name != "Keychain" })
    try expectCheck(
      deployment, status: 1,
      """
      Checking \(deployment.manifest): 5 plugins (5 loaded), 10 registrations

      \(Self.missingSecureStore)

      check: 1 error, 0 warnings; the deployment is broken

      """)
  }

  /// The report of SecureStore missing below Auth, as `check` and `run`
  /// both print it.
  static let missingSecureStore = """
    error: AuthService needs SecureStore, which nothing registers

    What went wrong:
      AppContracts.SecureStore is a dependency declared at Auth/AuthAssembly.swift:7 in plugin Auth, and no loaded plugin registers it.

    Chain:
      Application  (registered at Shell/ShellAssembly.swift:16 in plugin Shell)
      → LoginFeature  (registered at Login/LoginAssembly.swift:7 in plugin Login)
      → AuthService  (registered at Auth/AuthAssembly.swift:7 in plugin Auth)
      → SecureStore  (✗ not registered)

    Action:
      Register SecureStore in a plugin the deployment loads, for example container.register((any SecureStore).self) { r in ... }, or correct the dependency declared at Auth/AuthAssembly.swift:7 in plugin Auth.
    """

  /// CyclicAPI's APIClient needs AuthService; Auth's AuthService needs an
  /// APIClient.
  @Test func aCycleAcrossTwoPlugins() throws {
    let names = ["Keychain", "Auth", "CyclicAPI", "Login", "IssueList", "Shell"]
    let deployment = try CheckedDeployment(names.map { Plugin.built($0) })
    try expectCheck(
      deployment, status: 1,
      """
      Checking \(deployment.manifest): 6 plugins (6 loaded), 9 registrations

      error: dependency cycle: AuthService → APIClient → AuthService

      What went wrong:
        Each of these services needs the next, so resolving any of them never finishes:
          AuthService → APIClient, declared at Auth/AuthAssembly.swift:7 in plugin Auth
          APIClient → AuthService, declared at CyclicAPI/CyclicAPIPlugin.swift:14 in plugin CyclicAPI
        It is reached from the Application: Application → LoginFeature → AuthService.

      Cycle:
        AuthService  (registered at Auth/AuthAssembly.swift:7 in plugin Auth)
        → APIClient  (registered at CyclicAPI/CyclicAPIPlugin.swift:14 in plugin CyclicAPI)
        → AuthService  (registered at Auth/AuthAssembly.swift:7 in plugin Auth  ✗ cycle closes here)

      Action:
        Break the cycle: let one of these services take its dependency as a Lazy<…> or Provider<…>, or set it after construction with initCompleted(resolving:), or move the part they share into a new service.

      check: 1 error, 0 warnings; the deployment is broken

      """)
  }

  /// A warning: the deployment works, so the status is 0.
  @Test func aCaptiveDependency() throws {
    let deployment = try CheckedDeployment(CheckedDeployment.live + [.built("CaptiveTracker")])
    try expectCheck(
      deployment, status: 0,
      """
      Checking \(deployment.manifest): 7 plugins (7 loaded), 13 registrations

      warning: captive dependency: AnalyticsTracker (container) holds EventBuffer (transient)

      What went wrong:
        AnalyticsTracker is made once per container and keeps the EventBuffer it receives for as long as the container lives, although EventBuffer is registered transient (a new instance for every resolution): everything using AnalyticsTracker shares one EventBuffer.
        The dependency is declared at CaptiveTracker/CaptiveTrackerPlugin.swift:13 in plugin CaptiveTracker.

      Chain:
        AnalyticsTracker  (registered at CaptiveTracker/CaptiveTrackerPlugin.swift:13 in plugin CaptiveTracker  scope container)
        → EventBuffer  (registered at CaptiveTracker/CaptiveTrackerPlugin.swift:18 in plugin CaptiveTracker  ✗ scope transient, captured)

      Action:
        If one shared EventBuffer is right, register it .inObjectScope(.container); otherwise make AnalyticsTracker .transient or .graph, or let it hold a Provider<EventBuffer> and read it each time it needs one.

      check: 0 errors, 1 warning; the deployment is healthy

      """)
  }

  /// SecondKeychain registers SecureStore after Keychain did.
  @Test func theSameKeyFromTwoPlugins() throws {
    let names = ["Networking", "Keychain", "SecondKeychain", "Auth", "Login", "IssueList", "Shell"]
    let deployment = try CheckedDeployment(names.map { Plugin.built($0) })
    try expectCheck(
      deployment, status: 0,
      """
      Checking \(deployment.manifest): 7 plugins (7 loaded), 11 registrations

      warning: SecureStore is registered by plugins 'Keychain' and 'SecondKeychain'; 'SecondKeychain' wins

      What went wrong:
        AppContracts.SecureStore is registered at Keychain/KeychainAssembly.swift:7 in plugin Keychain and again at SecondKeychain/SecondKeychainPlugin.swift:13 in plugin SecondKeychain.
        The later registration wins, and plugins register in manifest order: 'SecondKeychain' (plugins[2]) comes after 'Keychain' (plugins[1]), so the registration in 'Keychain' is never used.

      Action:
        If 'SecondKeychain' is meant to replace it, remove the registration from 'Keychain' or disable 'Keychain'; if both are needed, give one a name (register((any SecureStore).self, name: "...")); to switch between them, use profiles.

      check: 0 errors, 1 warning; the deployment is healthy

      """)
  }

  /// Keychain is disabled: what it would provide is learned in a child
  /// process, and the report names it.
  @Test func aDisabledProvider() throws {
    let plugins = CheckedDeployment.live.map {
      $0.name == "Keychain" ? .built("Keychain", enabled: false) : $0
    }
    let deployment = try CheckedDeployment(plugins)
    try expectCheck(
      deployment, status: 1,
      """
      Checking \(deployment.manifest): 6 plugins (5 loaded), 10 registrations

      error: AuthService needs SecureStore, which only plugin 'Keychain' registers, and that plugin is not loaded

      What went wrong:
        AppContracts.SecureStore is a dependency declared at Auth/AuthAssembly.swift:7 in plugin Auth.
        It is registered at Keychain/KeychainAssembly.swift:7 in plugin 'Keychain', and plugin 'Keychain' is disabled in plugins.json (plugins[1].enabled is false).

      Chain:
        Application  (registered at Shell/ShellAssembly.swift:16 in plugin Shell)
        → LoginFeature  (registered at Login/LoginAssembly.swift:7 in plugin Login)
        → AuthService  (registered at Auth/AuthAssembly.swift:7 in plugin Auth)
        → SecureStore  (registered at Keychain/KeychainAssembly.swift:7 in plugin Keychain  ✗ plugin 'Keychain' is not loaded)

      Action:
        Enable plugin 'Keychain' in plugins.json (remove "enabled": false from plugins[1]), or register SecureStore in a plugin that is loaded.

      check: 1 error, 0 warnings; the deployment is broken

      """)
  }

  /// GreetingProvider and GreetingApp each carry a static copy of
  /// GreetingContract: the Greeter one registers is not the one the other
  /// asks for.
  @Test func aDuplicatedModuleCopy() throws {
    let deployment = try CheckedDeployment([.built("GreetingProvider"), .built("GreetingApp")])
    let (app, provider) = (BuildProducts.library("GreetingApp"), BuildProducts.library("GreetingProvider"))
    let rebuild = RebuildCommand.forLibrary(at: app)
    try expectCheck(
      deployment, status: 1,
      """
      Checking \(deployment.manifest): 2 plugins (2 loaded), 2 registrations

      error: Application needs GreetingContract.Greeter from another copy of module GreetingContract

      What went wrong:
        Application (registered at GreetingApp/GreetingAppPlugin.swift:13 in plugin GreetingApp) asks for the GreetingContract.Greeter defined in \(app).
        The only registration of that name, at GreetingProvider/GreetingProviderPlugin.swift:12 in plugin GreetingProvider, is of the GreetingContract.Greeter defined in \(provider): the same name, another type.
        Module GreetingContract is loaded twice: a library carries its own static copy of it instead of sharing one.

      Chain:
        Application  (registered at GreetingApp/GreetingAppPlugin.swift:13 in plugin GreetingApp)
        → Greeter  (✗ registered only under another identity)

      Action:
        Make GreetingContract a .dynamic library product of its own package, and depend on that product (.package(path: ...)) from the host and every plugin instead of building its sources into them, so that one copy is loaded; then rebuild libGreetingApp.so and libGreetingProvider.so: \(rebuild).

      check: 1 error, 0 warnings; the deployment is broken

      """)
  }

  /// A disabled plugin that crashes while loading takes only the
  /// supervised child with it; check reports it and ends normally.
  @Test func aDisabledPluginThatCrashesWhileLoading() throws {
    let crash = try CFixtures.directory.get() + "/libCrash.so"
    let deployment = try CheckedDeployment(
      CheckedDeployment.live + [Plugin(name: "Crash", path: crash, enabled: false)])
    try expectCheck(
      deployment, status: 0,
      """
      Checking \(deployment.manifest): 7 plugins (6 loaded), 11 registrations

      warning: what plugin 'Crash' provides is unknown

      What went wrong:
        It was loaded on its own to learn what it registers, because plugin 'Crash' is disabled in plugins.json (plugins[6].enabled is false), and that failed: open: plugin 'Crash' (\(crash)) crashed with SIGSEGV (segmentation fault: a bad memory access) in libCrash.so+0x… while being opened (in its library initialisers) — fix the plugin, or set "enabled": false in the manifest to deploy without it.

      Action:
        Fix the plugin before loading it, or remove it from plugins.json.

      check: 0 errors, 1 warning; the deployment is healthy

      """)
  }

  /// `run` validates the graph before resolving anything, with the same
  /// checker, and refuses to start a graph that cannot work.
  @Test func runRefusesAGraphWithErrorsBeforeStarting() throws {
    let deployment = try CheckedDeployment(CheckedDeployment.live.filter { $0.name != "Keychain" })
    let result = try Subprocess.plugboard(["run", "--manifest", deployment.manifest])
    #expect(result.exited)
    #expect(result.status == 78)  // run: the deployment is broken
    #expect(result.stdout == "")
    #expect(
      result.stderr == """
        \(Self.missingSecureStore)

        plugboard: run: the dependency graph has 1 error; the application was not run (plugboard check shows the whole report)

        """)
  }

  /// Runs `plugboard check` on `deployment`: it must end by exiting with
  /// `status`, print exactly `report` and nothing on stderr.
  private func expectCheck(
    _ deployment: CheckedDeployment, status: Int32, _ report: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let result = try deployment.check()
    #expect(result.exited, sourceLocation: sourceLocation)
    #expect(result.status == status, sourceLocation: sourceLocation)
    #expect(result.stderr == "", sourceLocation: sourceLocation)
    // A crash is named with its library's offset, the compiler's choice.
    #expect(CrashLocation.masked(result.stdout) == report, sourceLocation: sourceLocation)
  }
}

/// `LD_LIBRARY_PATH` decides where plugins' dependencies come from, ahead of
/// their own folders: `check` says so when it is set, and not otherwise.
@Suite(.blocking) struct LibraryPathCheckTests {
  private func libraryPathFindings(_ environment: [String: String]) throws -> [String] {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([("Networking", BuildProducts.library("Networking"))])
    let result = try Subprocess.plugboard(["check", "--manifest", manifest], environment: environment)
    return result.stdout.split(separator: "\n").map(String.init).filter { $0.contains("LD_LIBRARY_PATH") }
  }

  @Test func aSetLibraryPathIsAWarning() throws {
    #expect(
      try libraryPathFindings(["LD_LIBRARY_PATH": "/opt/elsewhere/lib"]) == [
        "warning: LD_LIBRARY_PATH is set, so it decides where the plugins' dependencies come from",
        "  LD_LIBRARY_PATH=/opt/elsewhere/lib",
        "  Unset LD_LIBRARY_PATH for plugboard, or make sure its folders hold no library a plugin depends on "
          + "(see SECURITY.md).",
      ])
    #expect(try libraryPathFindings(["LD_LIBRARY_PATH": ""]) == [])
  }

  /// The loader's other variables that bring code or change how it is
  /// loaded: each a warning of check, and of run too.
  @Test(arguments: [
    (
      "LD_PRELOAD", "libm.so.6",
      "the libraries it names are loaded into plugboard before any plugin, and run with its rights"
    ),
    (
      "LD_AUDIT", "/nonexistent/libaudit.so",
      "the auditing libraries it names are loaded into plugboard and see every library it opens"
    ),
    (
      "GLIBC_TUNABLES", "glibc.malloc.perturb=0",
      "it changes how the C library and the dynamic loader behave in plugboard"
    ),
  ])
  func aSetLoaderVariableIsAWarningOfCheckAndRun(variable: String, value: String, effect: String) throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([("Networking", BuildProducts.library("Networking"))])
    let title = "\(variable) is set, so code or settings from outside the deployment reach plugboard"
    let check = try Subprocess.plugboard(["check", "--manifest", manifest], environment: [variable: value])
    #expect(
      check.stdout.split(separator: "\n").map(String.init).filter {
        $0.contains(variable) || $0.contains(effect)
      } == [
        "warning: " + title,
        "  \(variable)=\(value)",
        "  While it is set, \(effect); plugboard's vetting and pins do not cover it.",
        "  Unset \(variable) for plugboard (see SECURITY.md).",
      ])
    let run = try Subprocess.plugboard(
      ["run", "--manifest", BuildProducts.packageRoot + "/plugins.json"], environment: [variable: value])
    #expect(run.status == 0)
    #expect(run.stderrLines.contains("plugboard: run: warning: " + title))
  }
}
