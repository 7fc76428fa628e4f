/// What a manifest's rules select among: the contributions to an extension
/// point (`"contributions"`), or the decorators of a service
/// (`"decorators"`). Both have the same shape, and the same selectors.
package enum RuleSubject: Sendable {
  case contributions
  case decorators

  /// The manifest key the rules are written under.
  package var block: String {
    switch self {
    case .contributions: "contributions"
    case .decorators: "decorators"
    }
  }

  /// One of what the selectors name: `contribution`, `decorator`.
  var item: String {
    switch self {
    case .contributions: "contribution"
    case .decorators: "decorator"
    }
  }

  /// What a rule's key names: `extension point`, `decorated service`.
  var group: String {
    switch self {
    case .contributions: "extension point"
    case .decorators: "decorated service"
    }
  }

  /// How an item relates to its group: a contribution `to`, a decorator `of`.
  var preposition: String {
    switch self {
    case .contributions: "to"
    case .decorators: "of"
    }
  }

  /// A profile's own rules of this kind.
  func rules(of profile: ProfileDeclaration?) -> [ContributionRule] {
    switch self {
    case .contributions: profile?.contributions ?? []
    case .decorators: profile?.decorators ?? []
    }
  }
}

/// What a manifest says about one extension point's contributions:
///
/// ```json
/// "contributions": { "Command": { "exclude": ["trace", "Debug.*"] } }
/// ```
///
/// at the top level (every profile) or in a profile (which then replaces
/// the top level's rule for that extension point). `include`, when given,
/// keeps only the contributions it matches; `exclude` leaves out those it
/// matches, after `include`. See ``ContributionSelector`` for what a
/// selector matches and ``ContributionFilter`` for how rules are applied.
///
/// A `"decorators"` rule has the same shape, for the decorators of one
/// service (`"decorators": { "APIClient": { "exclude": ["Timing.*"] } }`):
/// its `extensionPoint` is then the decorated type.
package struct ContributionRule: Equatable, Sendable {
  /// The extension point as written: a bare (`Command`) or fully
  /// qualified (`AppContracts.Command`) type name.
  package let extensionPoint: String
  /// The contributions to keep; `nil` to keep every one.
  package let include: [ContributionSelector]?
  /// The contributions to leave out.
  package let exclude: [ContributionSelector]
  /// Where the rule is written: `profiles.mock.contributions.Command`.
  package let path: ManifestPath

  package init(
    extensionPoint: String, include: [ContributionSelector]?, exclude: [ContributionSelector],
    path: ManifestPath
  ) {
    self.extensionPoint = extensionPoint
    self.include = include
    self.exclude = exclude
    self.path = path
  }
}

/// One element of a rule's `include` or `exclude` list. It matches a
/// contribution to the rule's extension point
/// - by its name: `"trace"`;
/// - by its plugin and name: `"Debug.trace"`;
/// - or every contribution of a plugin: `"Debug.*"` (the only way to
///   select an unnamed contribution).
package struct ContributionSelector: Equatable, Sendable {
  package let text: String
  /// `contributions.Command.exclude[0]`.
  package let path: ManifestPath

  package init(_ text: String, path: ManifestPath) {
    self.text = text
    self.path = path
  }

  /// Whether this selects the contribution `name` made by `plugin`.
  func matches(name: String?, plugin: String?) -> Bool {
    if let name, text == name { return true }
    guard let plugin, text.hasPrefix(plugin), text.utf8.count > plugin.utf8.count else { return false }
    let rest = text.dropFirst(plugin.count)
    guard rest.first == "." else { return false }
    let selected = rest.dropFirst()
    return selected == "*" || (name.map { selected == $0 } ?? false)
  }

  /// The plugin a `Plugin.name` or `Plugin.*` selector names, if it has
  /// that shape: the part before its first dot.
  var pluginPart: String? {
    guard let dot = text.firstIndex(of: "."), dot != text.startIndex else { return nil }
    return String(text[..<dot])
  }
}
