/// Whether `--only` selects a group of scenarios whose names start with
/// `group`: no `--only` selects every group; `startup` selects both of
/// startup's groups (`startup_sample`, `startup_generated`), and
/// `startup_sample_pinned` the one group that holds it.
enum ScenarioGroup {
  static func isWanted(_ group: String, only: String?) -> Bool {
    guard let only else { return true }
    return only.hasPrefix(group) || group.hasPrefix(only)
  }
}
