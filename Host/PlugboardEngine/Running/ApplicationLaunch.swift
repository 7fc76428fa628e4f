import PlugboardAnalysis
import PlugboardKit

/// What `run` does once a deployment is up, in one place for
/// `plugboard run` and for programs that embed the host
/// (``EmbeddedDeployment/launch()``): refuse a deployment with problems,
/// validate its dependency graph, resolve its `Application`, then run it.
///
/// A deployment with problems is not run at all: half an application,
/// missing the plugins that failed, is worse than a clear refusal. The
/// same holds for a graph that cannot work: before resolving anything, the
/// whole dependency graph is validated, as .NET's `ValidateOnBuild` does,
/// with the checker behind `plugboard check` (minus its probes of plugins
/// that are not loaded). Errors stop the run; warnings are left to
/// `plugboard check`, but for one plugin silently replacing another's
/// registration (``warnings``).
public struct ApplicationLaunch {
  let deployment: Deployment
  /// The deployment's `Application`, resolved.
  public let application: any Application
  /// Findings worth saying before the application starts, each a sentence:
  /// a key that two plugins register (the later one wins, which changes
  /// what the application gets).
  public let warnings: [String]
  /// In a program that embeds the host, its turn after bring-up, which
  /// ``run(arguments:hookTimeout:)`` hands over to the application.
  var program: ProgramHandover? = nil

  /// Validates `deployment` and resolves its `Application`.
  /// - Throws: ``RunFailure/deploymentProblems(_:)`` when a plugin or the
  ///   profile failed, ``RunFailure/brokenGraph(_:)`` when the graph has
  ///   errors, ``RunFailure/unresolvableApplication(_:hints:)`` when
  ///   resolving the `Application` threw (an `Application` made by an
  ///   async factory, or needing one, included: ``prepareAwaiting(_:)``
  ///   resolves those). Nothing was run then.
  package static func prepare(_ deployment: Deployment) throws(RunFailure) -> ApplicationLaunch {
    let warnings = try validate(deployment)
    do {
      let application = try deployment.container.resolve((any Application).self)
      return ApplicationLaunch(deployment: deployment, application: application, warnings: warnings)
    } catch {
      throw unresolvable(error, in: deployment)
    }
  }

  /// ``prepare(_:)`` resolving the `Application` with `try await`, so that
  /// it may be made by an async factory or depend on async registrations
  /// (a database connection awaited while the application is made). A
  /// synchronous registration is made synchronously on the way.
  package static func prepareAwaiting(_ deployment: Deployment) async throws(RunFailure) -> ApplicationLaunch
  {
    let warnings = try validate(deployment)
    do {
      let application = try await deployment.container.asyncResolver.resolve((any Application).self)
      return ApplicationLaunch(deployment: deployment, application: application, warnings: warnings)
    } catch {
      throw unresolvable(error, in: deployment)
    }
  }

  /// Refuses a deployment with problems or a broken graph, and returns the
  /// warnings `run` says; the stage is then the Application's resolution.
  private static func validate(_ deployment: Deployment) throws(RunFailure) -> [String] {
    guard deployment.problems.isEmpty else {
      throw .deploymentProblems(deployment.problems)
    }
    deployment.progress.report(.stage(.validate, plugin: nil, file: nil))
    var validation = DeploymentChecker(deployment).check()
    guard validation.healthy else {
      // What a disabled or left-out plugin would have provided is learnt by
      // loading it (plugin code), so before the report, while the
      // supervisor still times it; the findings then name the plugin, as
      // check's do, instead of saying nothing registers the service.
      let probes = PluginProbe().probeUnloaded(of: deployment)
      if !probes.isEmpty { validation = DeploymentChecker(deployment, probes: probes).check() }
      throw .brokenGraph(validation)
    }
    // What changes what the application gets, or which code runs with it,
    // is said by run too, not only by check.
    let warned: Set<Finding.Kind> = [.duplicateRegistration, .libraryPathSet, .loaderVariableSet]
    let warnings = validation.findings.filter { warned.contains($0.kind) }.map(\.title)
    deployment.progress.report(.stage(.resolveApplication, plugin: nil, file: nil))
    return warnings
  }

  /// The failure for an `Application` that could not be resolved.
  private static func unresolvable(_ error: any Error, in deployment: Deployment) -> RunFailure {
    let hints = profileHints(for: error, in: deployment)
    return .unresolvableApplication(error, hints: hints)
  }

  /// Starts the deployment's services that have start hooks, in
  /// dependency order, runs the application with `arguments`, then stops
  /// the services in reverse (also on SIGINT or SIGTERM, when some service
  /// has hooks; see `Docs/lifecycle.md`), and returns the application's
  /// exit status, or 128 + N when signal N asked it to stop.
  ///
  /// Each hook may take `hookTimeout` (by default the manifest's
  /// `hookTimeout`, else 30 s). A stop hook that fails is reported on
  /// standard error as a warning and does not change the status.
  /// - Throws: ``RunFailure/startFailed(_:signal:)`` when a start hook
  ///   failed (the services already started were stopped), and
  ///   ``RunFailure/applicationFailed(_:)`` with what the application threw.
  public func run(arguments: [String], hookTimeout: Duration? = nil) async throws(RunFailure) -> Int32 {
    try await run(
      arguments: arguments, hookTimeout: hookTimeout, console: StandardConsole(),
      running: program?.handOverToApplication(of: deployment))
  }

  /// ``run(arguments:hookTimeout:)`` with shut-down warnings on `console`,
  /// in the phase `running` (nil: the program's application ran already).
  /// Start hooks count as running: they are bounded by their own limit
  /// (hookTimeout), not the stage limit, and their output is the
  /// application's (see ApplicationSession and Docs/lifecycle.md).
  package func run(
    arguments: [String], hookTimeout: Duration?, console: any Console,
    running: consuming ChildSession.ApplicationRunning?
  ) async throws(RunFailure) -> Int32 {
    // `--hook-timeout` overrides the manifest's for dispose hooks too.
    if let hookTimeout { deployment.container.disposeTimeout = hookTimeout }
    let lifecycle = ServiceLifecycle(deployment: deployment, limit: hookTimeout)
    return try await ApplicationSession(
      lifecycle: lifecycle, application: application, arguments: arguments, console: console,
      progress: deployment.progress
    ).run(running)
  }

  /// When what is missing would come from a plugin the profile left out,
  /// says so: the fix is usually the profile, not the code.
  private static func profileHints(for error: any Error, in deployment: Deployment) -> [String] {
    guard let resolution = error as? ResolutionError, case .notRegistered = resolution.kind else { return [] }
    return ExcludedProvider.providers(of: resolution.key, in: deployment).map(\.description)
  }
}
