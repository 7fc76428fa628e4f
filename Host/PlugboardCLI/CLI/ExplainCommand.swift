import PlugboardAnalysis
import PlugboardEngine
import PlugboardKit

/// `plugboard explain TYPE [--name NAME] [--profile NAME]`: how TYPE would
/// be resolved in this deployment, in the active profile (chosen as for
/// `run`), which it names with what chose it and what it changed. Exit
/// status 0 when a registration serves it, its whole declared tree is
/// there and the deployment has no error `check` would report; 1 when not,
/// or when TYPE is unknown but a plugin failed to load (it may be the one
/// registering it); 2 when TYPE names no type of a healthy deployment, or
/// several. `--json` prints the answer as an ``ExplanationReport``, also
/// when the manifest is broken (with its `problems`) and when TYPE names no
/// type or several (with that finding); other misuse prints none.
struct ExplainCommand {
  let options: ParsedOptions
  let console: any Console
  /// Where bring-up reports its stages.
  let progress: ChildSession
  /// What the command line chose, for bring-up.
  let settings: HostSettings

  /// Explains the query, then reports (ending `bringingUp`).
  func execute(_ bringingUp: consuming ChildSession.BringingUp) -> ExitStatus.RawValue {
    if options.isSet(.typeNames) { return printTypeNames(bringingUp) }
    let query = options.positionals.first ?? ""
    let json = options.isSet(.json)
    let request = DeploymentRequest(
      options: options, command: CommandSpec.explain.name, progress: progress, settings: settings)
    let deployment: Deployment
    switch request.bringUp() {
    case .success(let brought): deployment = brought
    case .failure(let failure):
      _ = bringingUp.beginReport()
      return unbrought(failure, request, query: query, json: json)
    }
    let probes = PluginProbe().probeUnloaded(of: deployment)
    let warnings = EnvironmentRule().warnings(
      of: deployment, probes: probes, command: CommandSpec.explain.name)
    _ = bringingUp.beginReport()
    for line in warnings { console.warn(line) }
    let checker = DeploymentChecker(deployment, probes: probes)
    let typeName: String
    switch matchedType(query, checker: checker, deployment: deployment, json: json) {
    case .next(let name): typeName = name
    case .ended(let status): return status
    }
    let errors = GraphErrors.report(checker, command: CommandSpec.explain.name, on: console)
    let report = Explanation(checker: checker, typeName: typeName, name: options[.registrationName])
      .report(findings: errors)
    if json {
      console.out(JSONText.encode(report))
    } else {
      for line in report.lines { console.out(line) }
    }
    return (report.healthy ? ExitStatus.healthy : .problems).rawValue
  }

  /// A step of the explanation: what the next one takes, or the status
  /// the command ends with, its reasons already printed.
  private enum Step<Value> {
    case next(Value)
    case ended(ExitStatus.RawValue)
  }

  /// Reports why the deployment could not be brought up, once the report
  /// began; a broken manifest still gets `--json`'s document, with its
  /// problems.
  private func unbrought(
    _ failure: DeploymentRequest.Failure, _ request: DeploymentRequest, query: String, json: Bool
  )
    -> ExitStatus.RawValue
  {
    switch failure {
    case .manifest(let error) where json:
      let report = unanswered(manifest: error.path, profile: nil, problems: error.problems, query: query)
      console.out(JSONText.encode(report))
      return request.report(.manifest(error), on: console)
    default: return request.report(failure, on: console)
    }
  }

  /// The one type `query` names among the deployment's; misuse when it
  /// names several, or none of a healthy deployment.
  private func matchedType(_ query: String, checker: DeploymentChecker, deployment: Deployment, json: Bool)
    -> Step<String>
  {
    switch TypeQuery.match(query, among: Explanation.knownTypeNames(checker)) {
    case .found(let name): return .next(name)
    case .ambiguous(let names):
      if json {
        printQueryFinding(
          .ambiguousType, title: "'\(query)' names several types of this deployment", suggestions: names,
          deployment: deployment, query: query)
      }
      return .ended(
        misuse(
          "'\(query)' is ambiguous; it names \(names.joined(separator: ", ")) — give the fully qualified name"
        ))
    case .unknown(let suggestion):
      return .ended(unknownType(query, suggestion: suggestion, deployment: deployment, json: json))
    }
  }

  /// The status for a `query` that names no type: misuse, unless a plugin
  /// failed to load, which may be the one registering it.
  private func unknownType(_ query: String, suggestion: String?, deployment: Deployment, json: Bool)
    -> ExitStatus.RawValue
  {
    let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
    let failed = deployment.problems.count
    guard failed == 0 else {
      // Not a mistyped name, as far as anyone can tell: the type may be
      // in the plugin that failed.
      if json {
        let report = unanswered(
          manifest: deployment.manifest.path, profile: ProfileEffects(deployment),
          problems: deployment.problems, query: query)
        console.out(JSONText.encode(report))
      }
      for problem in deployment.problems { console.err("plugboard: \(problem)") }
      let plugins = CheckReport.count(failed, "problem")
      console.err(
        "plugboard: explain: no type '\(query)' is registered in this deployment\(hint); "
          + "the deployment has \(plugins) (above), and a plugin that failed to load may be the one "
          + "registering it")
      return ExitStatus.problems.rawValue
    }
    if json {
      printQueryFinding(
        .unknownType, title: "no type '\(query)' is registered in this deployment",
        suggestions: suggestion.map { [$0] } ?? [], deployment: deployment, query: query)
    }
    return misuse("no type '\(query)' is registered in this deployment\(hint)")
  }

  /// The answer when there is none: the manifest or a plugin failed, or
  /// TYPE names no type of the deployment (`findings` says so).
  private func unanswered(
    manifest: String, profile: ProfileEffects?, problems: [DeploymentProblem], query: String,
    findings: [Finding] = []
  ) -> ExplanationReport {
    ExplanationReport(
      manifest: manifest, type: query, name: options[.registrationName], profile: profile, chosen: nil,
      selection: nil, tree: nil, notChosen: [], problems: problems, findings: findings)
  }

  /// `--json`'s document for a TYPE that names no type of a healthy
  /// deployment, or several: still misuse, but a script reading stdout
  /// gets a verdict and what was meant, as for any other answer.
  private func printQueryFinding(
    _ kind: Finding.Kind, title: String, suggestions: [String], deployment: Deployment, query: String
  ) {
    let finding = Finding(
      .error, kind, title: title,
      explanation: [
        "explain answers for a type a loaded plugin registers, by its name or its qualified name."
      ],
      suggestions: suggestions,
      action: "Give the qualified name of a registered type (plugboard list shows them).")
    let report = unanswered(
      manifest: deployment.manifest.path, profile: ProfileEffects(deployment), problems: [], query: query,
      findings: [finding])
    console.out(JSONText.encode(report))
  }

  /// `--type-names`: the types the loaded plugins register, one per line,
  /// as TYPE may name them and a shell word holds them. The plugins load
  /// here, in the supervised child, as for any explanation; the plugins
  /// that are not loaded are not probed, which would take a process each
  /// for a key press. Nothing when the deployment cannot be brought up: a
  /// completion prints no errors (the scripts discard standard error).
  private func printTypeNames(_ bringingUp: consuming ChildSession.BringingUp) -> ExitStatus.RawValue {
    let request = DeploymentRequest(
      options: options, command: CommandSpec.explain.name, progress: progress, settings: settings)
    let deployment: Deployment
    switch request.bringUp() {
    case .success(let brought): deployment = brought
    case .failure(let failure): return request.report(failure, on: console)
    }
    let names = TypeQuery.offered(among: Explanation.registeredTypeNames(deployment.container))
    _ = bringingUp.beginReport()
    for name in names where CompletionCommand.isShellWord(name) { console.out(name) }
    return ExitStatus.healthy.rawValue
  }

  private func misuse(_ message: String) -> ExitStatus.RawValue {
    for line in UsageError(message: message, command: CommandSpec.explain.name).lines { console.err(line) }
    return ExitStatus.misuse.rawValue
  }
}
