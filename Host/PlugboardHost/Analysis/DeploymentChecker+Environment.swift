extension DeploymentChecker {
  /// The dynamic loader's search path, which a plugin's dependencies are
  /// found on first: before the plugin's own folder (its `$ORIGIN`
  /// RUNPATH), so a `libPlugboardKit.so` or contracts library placed there
  /// is loaded in place of the one deployed beside the plugins.
  static let libraryPathVariable = "LD_LIBRARY_PATH"

  /// A set `LD_LIBRARY_PATH`: nothing is wrong yet, but which libraries the
  /// plugins get is decided outside the deployment.
  func libraryPath() -> [Finding] {
    guard let value = environment[Self.libraryPathVariable], !value.isEmpty else { return [] }
    return [
      Finding(
        .warning, .libraryPathSet,
        title: "\(Self.libraryPathVariable) is set, so it decides where the plugins' dependencies come from",
        explanation: [
          "\(Self.libraryPathVariable)=\(value)",
          "The dynamic loader searches these folders for every library a plugin depends on "
            + "(libPlugboardKit.so, the contracts it shares with other plugins) before the plugin's own "
            + "folder; a library found there is loaded instead of the one deployed beside the plugins.",
        ],
        action: "Unset \(Self.libraryPathVariable) for plugboard, or make sure its folders hold no library a "
          + "plugin depends on (see SECURITY.md).")
    ]
  }
}
