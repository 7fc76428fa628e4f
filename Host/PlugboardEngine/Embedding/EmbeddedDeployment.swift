import Foundation
import PlugboardKit

/// A Plugboard deployment brought up inside your own program: the entry
/// point for embedding the host, for a team that wants its own `main`, its
/// own command line and its own logging instead of the `plugboard`
/// executable.
///
/// Bring the deployment up from a manifest and a profile, read what went
/// wrong (``problems``), check its dependency graph as `plugboard check`
/// does (``check()``), resolve services from its container (``resolve(_:name:)``),
/// and run its `Application` as `plugboard run` does (``run(arguments:)``):
///
/// ```swift
/// let deployment = try EmbeddedDeployment.bringUp(manifest: "plugins.json", profile: "mock")
/// for problem in deployment.problems { print("my-app: \(problem)") }
/// let status = try await deployment.run(arguments: ["--user", "ada"])
/// ```
///
/// Nothing here prints: every outcome is a value that renders to text, so
/// the program chooses where and with what prefix it goes.
///
/// - Important: By default plugins load **in the calling process**. A
///   plugin that crashes or hangs while it loads, or while the application
///   runs, takes the program with it: the `plugboard` executable's
///   supervised child, which names the plugin and stage and carries on
///   without it, is only had by calling ``supervise(stageTimeout:)`` first
///   thing in `main` (see Docs/embedding.md and SECURITY.md).
public struct EmbeddedDeployment {
  let deployment: Deployment
  /// The variables bring-up looked at, for what the check says about them.
  let environment: [String: String]
  /// The program's turn, for its application (``run(arguments:)``).
  let program: ProgramHandover

  /// The session of the process that embeds the host. Static, unlike the
  /// `plugboard` command's, which its `main` makes and hands down: the
  /// public functions (``supervise(stageTimeout:exitTimeout:reloadsOnHangup:)``,
  /// ``bringUp(manifest:profile:environment:)``) are a program's to call in
  /// any order, with no value in common to carry it, and what it stands
  /// for, the child a supervisor forked, is the process's. Made once, on
  /// first use (a static's first use is thread-safe); what changes in it
  /// is behind its locks.
  static let session = ChildSession()

  /// Reads the manifest, chooses the profile and brings the deployment up
  /// in it: every plugin the profile loads is vetted, opened and assembled
  /// into one container, in manifest order. Plugin code runs here.
  ///
  /// - Parameters:
  ///   - manifest: the manifest's path, relative to the current directory
  ///     or absolute; nil for `./plugins.json`.
  ///   - profile: the profile to bring it up in. When nil,
  ///     `PLUGBOARD_PROFILE` in `environment` chooses, then the manifest's
  ///     `activeProfile`, as for `plugboard run`. Pass `environment: [:]` to
  ///     ignore the variable.
  ///   - environment: the variables to consult (`PLUGBOARD_PROFILE`, and
  ///     `LD_LIBRARY_PATH` which ``check()`` warns about).
  /// - Throws: ``BringUpError`` when the manifest cannot be read or is
  ///   wrong, or names no such profile; nothing of a plugin ran then. A
  ///   plugin that fails is not thrown: it is one of ``problems``.
  public static func bringUp(
    manifest: String? = nil, profile: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(BringUpError) -> EmbeddedDeployment {
    let read: Manifest
    switch ManifestReader.read(argument: manifest, origin: .embedding(manifest)) {
    case .success(let manifest): read = manifest
    case .failure(let error): throw .manifest(error)
    }
    // When supervised, the parent times each stage with the manifest's limits.
    let progress = session
    progress.announceLimits(of: read)
    switch ProfileChooser.choose(for: read, option: profile, environment: environment) {
    case .success(let chosen):
      let bringingUp = progress.beginBringUp(divertingPluginOutput: false)
      let deployment = Deployment.bringUp(
        read, profile: chosen, loader: PluginLoader(progress: progress), settings: HostSettings())
      // Bring-up is over: when supervised, the program's own work follows,
      // and its ending (an exit with its status) is not a plugin's.
      let program = ProgramHandover(bringingUp.handOverToProgram())
      return EmbeddedDeployment(deployment: deployment, environment: environment, program: program)
    case .failure(var error):
      // The message names the profile; plugboard's flag is not this program's.
      error.optionName = nil
      throw .profile(error)
    }
  }

  /// The manifest's absolute, canonical path.
  public var manifestPath: String { deployment.manifest.path }

  /// The profile it was brought up in; nil when the manifest declares none.
  public var profile: String? { deployment.profile?.name }

  /// The names of the plugins that loaded and assembled, in manifest order.
  public var loadedPlugins: [String] { deployment.loadedPlugins.map(\.name) }

  /// Everything that went wrong bringing it up, in manifest order: each
  /// plugin that failed (at which stage, why, what to do), then problems
  /// applying the profile's service choices. Empty when every plugin the
  /// profile loads is in. ``run(arguments:)`` refuses to run with any.
  public var problems: [DeploymentProblem] { deployment.problems }

  /// The container every loaded plugin registered into. Resolving runs
  /// plugin factories in this process.
  public var resolver: Resolver { deployment.container }

  /// Resolves `type` (under `name`) from the deployment's container.
  /// - Throws: `ResolutionError`: not registered, a cycle, a factory that
  ///   threw; it carries the chain and renders to text.
  public func resolve<Service>(_ type: Service.Type = Service.self, name: String? = nil) throws -> Service {
    try deployment.container.resolve(type, name: name)
  }

  /// Checks the dependency graph in this deployment's profile: the report
  /// `plugboard check --profile <profile>` prints (`lines`) or encodes
  /// (`--json`), with the same findings. No factory runs; plugins the
  /// profile leaves out are loaded into a throwaway container to learn
  /// what they would provide (their assemblies run, in this process).
  public func check() -> CheckReport {
    let probes = PluginProbe().probeUnloaded(of: deployment)
    deployment.progress.report(.stage(.validate, plugin: nil, file: nil))
    return DeploymentChecker(deployment, probes: probes, environment: environment).check()
  }

  /// Validates the deployment and resolves its `Application`, ready to
  /// run: what ``run(arguments:)`` does first, for a program that wants
  /// to report ``ApplicationLaunch/warnings`` before it runs.
  /// The `Application` is resolved synchronously: one made by an async
  /// factory, or depending on one, fails here with its
  /// "registered with an async factory" error; ``run(arguments:)``
  /// resolves it with `try await`.
  /// - Throws: ``RunFailure`` when the deployment has problems, its graph
  ///   has errors, or the `Application` cannot be resolved.
  public func launch() throws(RunFailure) -> ApplicationLaunch {
    var launch = try ApplicationLaunch.prepare(deployment)
    launch.program = program
    return launch
  }

  /// Runs the deployment as `plugboard run` does: refuses it if it has
  /// problems or its graph has errors, resolves its `Application` and
  /// runs it with `arguments`.
  /// - Returns: the application's exit status.
  /// - Throws: ``RunFailure``; its ``RunFailure/exitStatus`` is what
  ///   `plugboard run` would exit with, its ``RunFailure/lines(prefix:command:)``
  ///   what it would print.
  public func run(arguments: [String] = []) async throws(RunFailure) -> Int32 {
    var launch = try await ApplicationLaunch.prepareAwaiting(deployment)
    launch.program = program
    return try await launch.run(arguments: arguments)
  }
}
