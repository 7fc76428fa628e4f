/// `plugboard list`: every plugin with its version, file and registrations,
/// as a table or (`--json`) as JSON. Problems go to stderr as well, and
/// make the exit status 1.
struct ListCommand {
  static let jsonFlag = "--json"

  let options: ParsedOptions
  let console: any Console

  func execute() -> ExitStatus.RawValue {
    let request = DeploymentRequest(options: options, command: CommandSpec.list.name)
    let listing: DeploymentListing
    switch request.bringUp() {
    case .success(let deployment): listing = DeploymentListing(deployment)
    case .failure(.manifest(let error)):
      listing = DeploymentListing(manifestPath: error.path, problems: error.problems)
    case .failure(let failure):
      return request.report(failure, on: console)
    }
    Progress.report(.reporting)
    if options.flags.contains(Self.jsonFlag) {
      console.out(JSONText.encode(listing))
    } else if !listing.plugins.isEmpty {
      for line in ListingTable.lines(listing) { console.out(line) }
    }
    for problem in listing.problems {
      console.err("plugboard: \(problem.stage.rawValue): \(problem.message)")
    }
    return (listing.healthy ? ExitStatus.healthy : .problems).rawValue
  }
}
