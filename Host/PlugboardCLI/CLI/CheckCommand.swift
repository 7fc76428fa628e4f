import PlugboardEngine

/// `plugboard check`: brings the deployment up without running the
/// application, in every profile the manifest declares (or only the one
/// `--profile` names), and reports everything ``DeploymentChecker`` finds
/// in each, as text or (`--json`) JSON, on stdout. Exit status 0 when no
/// profile has an error (warnings allowed), 1 otherwise, 2 for an
/// undeclared `--profile`.
///
/// `--resolve` also resolves every registration it safely can, in this
/// (supervised) process, and reports each failure as an error
/// (``DeploymentChecker/resolvingFindings()``). It is opt-in because it
/// runs the plugins' factories, with whatever side effects they have.
///
/// `PLUGBOARD_PROFILE` does not narrow the check: a variable exported in a
/// shell or a CI job would silently narrow it to one profile, and a check
/// that passes because it looked at less is worse than none. It is judged
/// by the rule every command shares (``EnvironmentRule``) all the same: one
/// naming an undeclared profile is misuse, as `run` would find it.
struct CheckCommand {
  /// `--resolve`: resolve every registration, running its factory.

  let options: ParsedOptions
  let console: any Console
  /// Where bring-up reports its stages.
  let progress: ChildSession
  /// What the command line chose, for bring-up.
  let settings: HostSettings

  /// Checks the deployment, then reports (ending `bringingUp`).
  func execute(_ bringingUp: consuming ChildSession.BringingUp) async -> ExitStatus.RawValue {
    let request = DeploymentRequest(
      options: options, command: CommandSpec.check.name, progress: progress, settings: settings)
    let manifest: Manifest
    switch request.manifest() {
    case .success(let read): manifest = read
    case .failure(.manifest(let error)) where options.isSet(.json):
      // Still a document on stdout: a script reads the verdict from it.
      // Standard output is the plugins' stderr until reporting starts.
      _ = bringingUp.beginReport()
      console.out(JSONText.encode(CheckSummary(manifest: error.path, problems: error.problems)))
      return request.report(.manifest(error), on: console)
    case .failure(let failure): return request.report(failure, on: console)
    }
    let chosen: ActiveProfile?
    switch request.profile(for: manifest) {
    case .success(let profile): chosen = profile
    case .failure(let failure): return request.report(failure, on: console)
    }
    let profiles: [ActiveProfile?] =
      options.profile != nil || manifest.profiles.isEmpty
      ? [chosen] : manifest.profiles.map(Self.checking(in: manifest))
    let summary = await CheckSummary.check(
      manifest, profiles: profiles, probe: PluginProbe(), resolving: options.isSet(.resolve),
      progress: progress,
      settings: settings)
    _ = bringingUp.beginReport()
    if options.isSet(.json) {
      console.out(JSONText.encode(summary))
    } else {
      // In one piece, as `list` prints its table.
      let lines = summary.lines
      if !lines.isEmpty { console.out(lines.joined(separator: "\n")) }
    }
    return (summary.healthy ? ExitStatus.healthy : .problems).rawValue
  }

  /// A declared profile as checking it chooses it: as `--profile NAME`
  /// would, or as the manifest does for its `activeProfile`.
  private static func checking(in manifest: Manifest) -> (ProfileDeclaration) -> ActiveProfile? {
    { declaration in
      let source: ProfileSource = declaration.name == manifest.activeProfile ? .manifest : .option
      return ActiveProfile(declaration, source: source, manifestDefault: manifest.activeProfile)
    }
  }
}
