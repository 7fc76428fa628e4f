extension ManifestError {
  /// The manifest's problems as deployment problems at stage "read
  /// manifest", one per line of ``lines``.
  public var problems: [DeploymentProblem] {
    lines.map { DeploymentProblem(stage: .readManifest, plugin: nil, file: path, message: $0) }
  }
}
