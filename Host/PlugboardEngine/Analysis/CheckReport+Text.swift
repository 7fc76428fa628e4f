extension CheckReport {
  /// The report as people read it: a heading, each finding in the style of
  /// PlugboardKit's resolution errors (what went wrong, the chain, did you
  /// mean, action), and a last line with the counts.
  public var lines: [String] {
    let profileText = profile.map { " in profile '\($0)'" } ?? ""
    var lines = [
      "Checking \(manifest)\(profileText): \(Self.count(plugins, "plugin")) (\(loaded) loaded), "
        + "\(Self.count(registrations, "registration"))"
    ]
    // The order is worth a line when requirements decide it (the manifest's
    // order, otherwise, says it already); JSON always carries it.
    if isReordered || loadOrder.contains(where: { !$0.requires.isEmpty }) {
      lines.append(AssemblyOrder.line(of: loadOrder))
    }
    // As the order: worth a line only when it is news, here a plugin built
    // against an older PlugboardKit than the host's.
    let older = kits.filter { $0.compatibility == KitCompatibility.older.name }
    if !older.isEmpty {
      let host = KitCompatibility.release(of: HostVersions.current.kit)
      lines.append(
        "compiled against an older PlugboardKit, which this host's \(host) accepts: "
          + older.map { "\($0.plugin) (\(KitCompatibility.release(of: $0.version)))" }.joined(separator: ", ")
      )
    }
    // Who vouches for each signed plugin: worth a line whenever one is.
    lines += signatures.map { "plugin '\(Terminal.sanitize($0.plugin))': \($0.text)" }
    for finding in findings {
      lines.append("")
      lines += finding.lines
    }
    lines.append("")
    let verdict = (healthy ? "the deployment is healthy" : "the deployment is broken") + profileText
    lines.append("check: \(Self.count(errors, "error")), \(Self.count(warnings, "warning")); \(verdict)")
    return lines
  }

  package static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }
}
