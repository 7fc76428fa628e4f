import PlugboardKit

/// What a plugin that tried to register in another plugin's name is told:
/// attribution is plugboard's, so its registrations stayed its own and the
/// plugin fails, as one whose assembly threw.
struct ImpersonationRefusal {
  /// The longest claimed name quoted: the name comes from the plugin.
  static let longestName = 120

  let refused: RefusedAttribution

  init(_ refused: RefusedAttribution) {
    self.refused = refused
  }

  /// The rest of the sentence after `plugin 'Name' (file)`.
  var message: String {
    let claimed = refused.claimed.map { "plugin '\(Self.quoted($0))'" } ?? "no plugin (plugboard's own)"
    return "tried to register in the name of \(claimed) (Container.attributing(to:)): only plugboard "
      + "attributes registrations, each to the plugin whose code made it, so its registrations stay its own "
      + "and the plugin is refused — remove the attributing(to:) call from its assemblies"
  }

  /// `name` made safe to print, and cut short when a plugin makes it long.
  private static func quoted(_ name: String) -> String {
    let shown = name.count > longestName ? String(name.prefix(longestName)) + "…" : name
    return Terminal.sanitize(shown)
  }
}
