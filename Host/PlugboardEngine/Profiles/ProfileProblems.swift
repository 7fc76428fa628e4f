/// The problems found while applying a manifest's choices to an assembled
/// container (a profile's `services`, the `contributions` rules): each at
/// its place in the manifest, the first ``ListedProblems/limit`` listed,
/// the rest summed up in one more problem at the block they came from.
struct ProfileProblems {
  let manifest: String
  private var problems = ListedProblems<DeploymentProblem>()

  init(manifest: String) {
    self.manifest = manifest
  }

  /// Records a problem at `path`; its text (a did-you-mean, say) is built
  /// only when the problem is listed.
  mutating func append(at path: ManifestPath, _ text: @autoclosure () -> String) {
    let manifest = manifest
    problems.append(
      DeploymentProblem(
        stage: .applyProfile, plugin: nil, file: manifest, message: "\(manifest): \(path): \(text())"))
  }

  /// The listed problems, then the one that counts the unlisted ones,
  /// placed at `block` (`"contributions"`).
  func report(summarizedAt block: String) -> [DeploymentProblem] {
    var listed = problems.listed
    if let unlisted = problems.unlistedSummary {
      listed.append(
        DeploymentProblem(
          stage: .applyProfile, plugin: nil, file: manifest, message: "\(manifest): \(block): \(unlisted)"))
    }
    return listed
  }
}
