/// `plugboard explain TYPE [--name NAME] [--profile NAME]`: how TYPE would
/// be resolved in this deployment, in the active profile (chosen as for
/// `run`), which it names with what chose it and what it changed. Exit status 0 when a registration serves it and its
/// whole declared tree is there; 1 when not; 2 when TYPE names no type of
/// the deployment, or several.
struct ExplainCommand {
  static let nameOption = "--name"

  let options: ParsedOptions
  let console: any Console

  func execute() -> ExitStatus.RawValue {
    let query = options.positionals.first ?? ""
    let request = DeploymentRequest(options: options, command: CommandSpec.explain.name)
    let deployment: Deployment
    switch request.bringUp() {
    case .success(let brought): deployment = brought
    case .failure(let failure): return request.report(failure, on: console)
    }
    let probes = PluginProbe().probeUnloaded(of: deployment)
    Progress.report(.reporting)
    let checker = DeploymentChecker(deployment, probes: probes)
    let typeName: String
    switch TypeQuery.match(query, among: Explanation.knownTypeNames(checker)) {
    case .found(let name): typeName = name
    case .ambiguous(let names):
      return misuse(
        "'\(query)' is ambiguous; it names \(names.joined(separator: ", ")) — give the fully qualified name")
    case .unknown(let suggestion):
      let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
      return misuse("no type '\(query)' is registered in this deployment\(hint)")
    }
    let (lines, resolves) = Explanation(
      checker: checker, typeName: typeName, name: options.values[Self.nameOption]
    ).render()
    for line in lines { console.out(line) }
    for problem in deployment.problems { console.err("plugboard: \(problem)") }
    return (resolves && deployment.problems.isEmpty ? ExitStatus.healthy : .problems).rawValue
  }

  private func misuse(_ message: String) -> ExitStatus.RawValue {
    for line in UsageError(message: message, command: CommandSpec.explain.name).lines { console.err(line) }
    return ExitStatus.misuse.rawValue
  }
}
