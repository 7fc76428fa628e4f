/// `plugboard check`: brings the deployment up without running the
/// application, and reports everything ``DeploymentChecker`` finds, as
/// text or (`--json`) JSON, on stdout. Exit status 0 when there is no
/// error (warnings allowed), 1 otherwise.
struct CheckCommand {
  let options: ParsedOptions
  let console: any Console

  func execute() -> ExitStatus.RawValue {
    guard let manifest = ManifestArgument.read(options, console: console) else {
      return ExitStatus.problems.rawValue
    }
    let deployment = Deployment.bringUp(manifest)
    let probes = PluginProbe().probeUnloaded(of: deployment)
    let report = DeploymentChecker(deployment, probes: probes).check()
    if options.flags.contains(ListCommand.jsonFlag) {
      console.out(JSONText.encode(report))
    } else {
      for line in report.lines { console.out(line) }
    }
    return (report.healthy ? ExitStatus.healthy : .problems).rawValue
  }
}
