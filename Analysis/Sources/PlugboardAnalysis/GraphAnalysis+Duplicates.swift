import PlugboardKit

extension GraphAnalysis {
  /// Keys registered twice: which registration wins (the later one, and
  /// plugins register in manifest order) and which is never used.
  ///
  /// A registration tagged for the active profile that replaces another is
  /// not reported: that is how a plugin ships its own mock, and `list` and
  /// `explain` show it as the profile's doing ("registration switched").
  public func duplicateRegistrations(_ hooks: ValidationHooks = ValidationHooks()) -> [Finding] {
    // The graph holds every registration: the container would make the
    // list afresh.
    let unswitched = inventories[0].duplicates.filter { duplicate in
      // Replacing plugboard's default logger is what a plugin's Logger is for.
      !isDefault(duplicate.replaced)
        && !graph.nodes.contains {
          $0.info.key == duplicate.key && $0.info.site == duplicate.winner && $0.info.profiles != nil
        }
    }
    return unswitched.map { duplicate in
      let key = duplicate.key.shortDescription
      let (winner, replaced) = (duplicate.winner, duplicate.replaced)
      let used = [
        "\(duplicate.key) is registered at \(replaced) and again at \(winner)."
      ]
      guard let first = replaced.plugin, let second = winner.plugin, first != second else {
        return Finding(
          .warning, .duplicateRegistration,
          title: "\(key) is registered twice\(winner.plugin.map { " in plugin '\($0)'" } ?? ""); "
            + "the later registration wins",
          explanation: used + [
            "The later registration wins, so the one at \(replaced.fileID):\(replaced.line) is never used."
          ],
          action: "Remove one of the two registrations, or give one of them a name "
            + "(register(\(duplicate.key.service.metatypeSpelling), name: \"...\")).")
      }
      // In a deployment plugins register in manifest order; in process,
      // in the order their assemblies were applied.
      let order =
        hooks.position.map { position in
          "The later registration wins, and plugins register in manifest order: '\(second)' "
            + "(\(position(second))) comes after '\(first)' (\(position(first))), "
            + "so the registration in '\(first)' is never used."
        }
        ?? "The later registration wins: '\(second)' registered after '\(first)', so the registration in "
        + "'\(first)' is never used."
      return Finding(
        .warning, .duplicateRegistration,
        title: "\(key) is registered by plugins '\(first)' and '\(second)'; '\(second)' wins",
        explanation: used + [order],
        action: "If '\(second)' is meant to replace it, remove the registration from '\(first)' or "
          + "disable '\(first)'; if both are needed, give one a name "
          + "(register(\(duplicate.key.service.metatypeSpelling), name: \"...\")); to switch between "
          + "them, use profiles.")
    }
  }
}
