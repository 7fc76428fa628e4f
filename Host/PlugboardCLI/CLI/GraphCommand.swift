import PlugboardEngine

/// `plugboard graph [--format dot|mermaid|json] [--profile NAME]`: the
/// declared dependency graph of the active profile (chosen as for `run`)
/// on stdout (DOT by default). Load problems and the errors `check` would
/// report (a cycle, a missing dependency) go to stderr and make the exit
/// status 1; the graph is printed all the same.
struct GraphCommand {
  static let formats = ["dot", "mermaid", "json"]
  static let formatOption = "--format"

  let options: ParsedOptions
  let console: any Console
  /// Where bring-up reports its stages.
  let progress: ChildSession
  /// What the command line chose, for bring-up.
  let settings: HostSettings

  /// Draws the deployment's graph, then reports (ending `bringingUp`).
  func execute(_ bringingUp: consuming ChildSession.BringingUp) -> ExitStatus.RawValue {
    let format = options[.format] ?? "dot"
    guard Self.formats.contains(format) else {
      let hint =
        KeySuggestion.closest(to: format, among: Self.formats).map { "; did you mean '\($0)'?" } ?? ""
      let error = UsageError(
        message: "unknown format '\(format)' for --format; expected dot, mermaid or json\(hint)",
        command: CommandSpec.graph.name)
      for line in error.lines { console.err(line) }
      return ExitStatus.misuse.rawValue
    }
    let request = DeploymentRequest(
      options: options, command: CommandSpec.graph.name, progress: progress, settings: settings)
    let deployment: Deployment
    switch request.bringUp() {
    case .success(let brought): deployment = brought
    case .failure(.manifest(let error)) where format == "json":
      let document = GraphDocument(manifest: error.path, model: nil, problems: error.problems, errors: [])
      // Standard output is the plugins' stderr until reporting starts.
      _ = bringingUp.beginReport()
      console.out(JSONText.encode(document))
      return request.report(.manifest(error), on: console)
    case .failure(let failure): return request.report(failure, on: console)
    }
    let warnings = EnvironmentRule().warnings(of: deployment, command: CommandSpec.graph.name)
    _ = bringingUp.beginReport()
    for line in warnings { console.warn(line) }
    let model = GraphModel(deployment)
    let errors = GraphErrors.report(
      DeploymentChecker(deployment), command: CommandSpec.graph.name, on: console)
    let document = GraphDocument(
      manifest: deployment.manifest.path, model: model, problems: deployment.problems, errors: errors)
    switch format {
    case "mermaid": console.out(MermaidRenderer.render(model))
    case "json": console.out(JSONText.encode(document))
    default: console.out(DOTRenderer.render(model))
    }
    return (document.healthy ? ExitStatus.healthy : .problems).rawValue
  }
}
