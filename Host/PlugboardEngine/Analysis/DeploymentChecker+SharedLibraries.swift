import PlugboardAnalysis
import PlugboardKit

extension DeploymentChecker {
  /// Plugins that ship a library beside them but use another plugin's
  /// different file of that name, loaded first: which file serves both
  /// depends on manifest order, and a difference between the two files
  /// shows only when a symbol is missing.
  func sharedLibraryConflicts() -> [Finding] {
    deployment.loadedPlugins.flatMap(\.sharedLibraryConflicts).map { conflict in
      Finding(
        .warning, .sharedLibraryConflict,
        title: "plugin '\(conflict.plugin)' uses the \(conflict.library) of plugin '\(conflict.loadedBy)', "
          + "not its own",
        explanation: [
          conflict.message + ".",
          "Plugins load in manifest order: '\(conflict.loadedBy)' (\(manifestPosition(of: conflict.loadedBy))) "
            + "comes before '\(conflict.plugin)' (\(manifestPosition(of: conflict.plugin))), so which file "
            + "serves both depends on that order.",
        ],
        action: "Deploy one \(conflict.library) for both plugins: the same file, or identical copies, "
          + "built from the sources both plugins were built against.")
    }
  }
}
