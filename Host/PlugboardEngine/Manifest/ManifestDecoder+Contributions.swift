/// Decoding of `contributions`, at the top level and in a profile: per
/// extension point, the `include` and `exclude` lists of
/// ``ContributionRule``. Whether an extension point or a selector names
/// anything is known only once plugins have registered, so it is checked
/// by ``ContributionFilter`` then, not here.
extension ManifestDecoder {
  static let contributionRule = AllowedKeys(["include", "exclude"])

  /// The rules of a `contributions` (or `decorators`) object at `path`, in
  /// written order.
  mutating func contributionRules(_ node: Int, at path: ManifestPath, subject: RuleSubject = .contributions)
    -> [ContributionRule]
  {
    let tape = self.tape
    var rules: [ContributionRule] = []
    for (key, body) in orderedMembers(node, at: path) {
      let extensionPoint = tape.text(key)
      let place = path.key(extensionPoint)
      guard !extensionPoint.isEmpty else {
        report(
          place,
          subject == .contributions
            ? "expected an extension point's type name, found an empty key"
            : "expected a decorated service's type name, found an empty key")
        continue
      }
      guard let members = object(body, at: place, allowed: Self.contributionRule, reserved: [:]) else {
        continue
      }
      let include = members.node("include").map { selectors($0, at: place.key("include"), subject: subject) }
      let exclude =
        members.node("exclude").map { selectors($0, at: place.key("exclude"), subject: subject) } ?? []
      guard include != nil || members.node("exclude") != nil else {
        // An object with only unknown keys was reported key by key.
        guard tape.count(body) == 0 else { continue }
        report(
          place,
          "expected \"include\" (the \(subject.block) to keep) or \"exclude\" (the \(subject.block) to leave out), "
            + "or both")
        continue
      }
      rules.append(
        ContributionRule(extensionPoint: extensionPoint, include: include, exclude: exclude, path: place))
    }
    return rules
  }

  /// An `include` or `exclude` list: non-empty strings, each once.
  private mutating func selectors(_ node: Int, at path: ManifestPath, subject: RuleSubject)
    -> [ContributionSelector]
  {
    let tape = self.tape
    guard tape.kind(node) == .array else {
      report(
        path,
        "expected an array of \(subject.item) names (\"trace\", \"Debug.trace\" or \"Debug.*\"), "
          + "found \(tape.kindDescription(node))")
      return []
    }
    var selectors: [ContributionSelector] = []
    var seen: Set<String> = []
    for (index, element) in tape.elements(node).enumerated() {
      let place = path.index(index)
      guard tape.kind(element) == .string else {
        report(place, "expected a string, found \(tape.kindDescription(element))")
        continue
      }
      let text = tape.text(element)
      guard !text.isEmpty else {
        report(place, "expected a non-empty string")
        continue
      }
      guard seen.insert(text).inserted else {
        report(place, "\"\(Excerpt.of(Terminal.sanitize(text)))\" is listed twice; list each once")
        continue
      }
      selectors.append(ContributionSelector(text, path: place))
    }
    return selectors
  }
}
