import PlugboardEngine

/// `plugboard list`: every plugin with its version, file and registrations,
/// as a table or (`--json`) as JSON. Problems go to stderr as well, and
/// make the exit status 1.
struct ListCommand {
  let options: ParsedOptions
  let console: any Console
  /// Where bring-up reports its stages.
  let progress: ChildSession
  /// What the command line chose, for bring-up.
  let settings: HostSettings

  /// Lists the deployment, then reports (ending `bringingUp`).
  func execute(_ bringingUp: consuming ChildSession.BringingUp) -> ExitStatus.RawValue {
    let request = DeploymentRequest(
      options: options, command: CommandSpec.list.name, progress: progress, settings: settings)
    let listing: DeploymentListing
    var warnings: [String] = []
    switch request.bringUp() {
    case .success(let deployment):
      ProcessLifetime.keep(deployment)
      listing = DeploymentListing(deployment)
      warnings = EnvironmentRule().warnings(of: deployment, command: CommandSpec.list.name)
      // The table marks them "(see stderr)"; they are not problems, so the
      // status stays 0, as `run` runs without them.
      warnings += deployment.optionalFailures.map { entry, problem in
        "plugboard: \(CommandSpec.list.name): \(Deployment.optionalWarning(entry, problem))"
      }
    case .failure(.manifest(let error)):
      listing = DeploymentListing(manifestPath: error.path, problems: error.problems)
    case .failure(let failure):
      return request.report(failure, on: console)
    }
    ProcessLifetime.keep(listing)
    _ = bringingUp.beginReport()
    if options.isSet(.json) {
      console.out(JSONText.encode(listing))
    } else if !listing.plugins.isEmpty {
      // In one piece: the table is complete before any of it is printed,
      // and a line at a time cost a call per registration.
      console.out(ListingTable.text(listing))
    }
    for line in warnings { console.warn(line) }
    for problem in listing.problems {
      console.err("plugboard: \(problem.stage.rawValue): \(problem.message)")
    }
    return (listing.healthy ? ExitStatus.healthy : .problems).rawValue
  }
}
