import PlugboardAnalysis
import PlugboardKit

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
          "\(Self.libraryPathVariable)=\(Terminal.sanitize(value))",
          "The dynamic loader searches these folders for every library a plugin depends on "
            + "(libPlugboardKit.so, the contracts it shares with other plugins) before the plugin's own "
            + "folder; a library found there is loaded instead of the one deployed beside the plugins.",
        ],
        action: "Unset \(Self.libraryPathVariable) for plugboard, or make sure its folders hold no library a "
          + "plugin depends on (see SECURITY.md).")
    ]
  }

  /// The dynamic loader's other variables that bring code or change how it
  /// is loaded, and what each does, for the warning.
  static let loaderVariables: [(name: String, effect: String)] = [
    (
      "LD_PRELOAD",
      "the libraries it names are loaded into plugboard before any plugin, and run with its rights"
    ),
    ("LD_AUDIT", "the auditing libraries it names are loaded into plugboard and see every library it opens"),
    ("GLIBC_TUNABLES", "it changes how the C library and the dynamic loader behave in plugboard"),
  ]

  /// `LD_PRELOAD`, `LD_AUDIT`, `GLIBC_TUNABLES`, each when set: like
  /// `LD_LIBRARY_PATH`, nothing is wrong yet, but code or loader settings
  /// are chosen outside the deployment, where no vetting or pin reaches.
  func loaderVariables() -> [Finding] {
    Self.loaderVariables.compactMap { variable, effect in
      guard let value = environment[variable], !value.isEmpty else { return nil }
      return Finding(
        .warning, .loaderVariableSet,
        title: "\(variable) is set, so code or settings from outside the deployment reach plugboard",
        explanation: [
          "\(variable)=\(Terminal.sanitize(value))",
          "While it is set, \(effect); plugboard's vetting and pins do not cover it.",
        ],
        action: "Unset \(variable) for plugboard (see SECURITY.md).")
    }
  }

  /// A `TMPDIR` others can change, when plugins are pinned or signed: such
  /// a plugin is opened through a private folder made there, so plugboard
  /// uses `/dev/shm` or `/tmp` instead, and says which.
  func temporaryFolder() -> [Finding] {
    let manifest = deployment.manifest
    let pinned =
      manifest.plugins.contains { $0.sha256 != nil }
      || manifest.discoveredSettings.contains { $0.sha256 != nil }
    let signed =
      manifest.trust != nil || manifest.plugins.contains { $0.trust != nil }
      || manifest.pluginFolderTrust.contains { $0 != nil }
    guard pinned || signed, let value = environment["TMPDIR"], value.hasPrefix("/"),
      let problem = PrivateOrigin.temporaryFolderProblem(value)
    else { return [] }
    let instead = PrivateOrigin.temporaryBases(tmpdir: nil).first ?? "/tmp"
    return [
      Finding(
        .warning, .loaderVariableSet,
        title:
          "TMPDIR is not safe for the private folder of pinned and signed plugins, so plugboard uses "
          + "\(instead) instead",
        explanation: ["TMPDIR=\(Terminal.sanitize(value)) \(problem)."],
        action:
          "Set TMPDIR to a folder writable by no one else, or unset it (see SECURITY.md, \"Integrity pins\")."
      )
    ]
  }
}
