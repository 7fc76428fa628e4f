import PlugboardEngine

/// `plugboard list` as text: a heading per plugin (name, version, file)
/// and under it a table of its registrations; then each extension point
/// with its contributions in resolution order.
enum ListingTable {
  /// The listing's lines, separated by line breaks: `list` prints it in
  /// one piece, and a string per line cost thousands.
  static func text(_ listing: DeploymentListing) -> String {
    var text = "Deployment \(listing.manifest)"
    func add(_ line: String) {
      text += "\n"
      text += line
    }
    if let profile = listing.profile { ProfileLines.lines(profile).forEach(add) }
    add(summary(listing))
    // Only when a plugin replaced plugboard's default (`--json` always says).
    if let logger = listing.logger, logger.plugin != nil { add(logger.text) }
    for plugin in listing.plugins {
      add("")
      add(heading(plugin))
      guard plugin.status == .loaded else { continue }
      for signature in plugin.signatures ?? [] { add("  " + signature.text) }
      guard !plugin.registrations.isEmpty else {
        add("  (no registrations)")
        SettingListing.lines(plugin.settings).forEach(add)
        continue
      }
      let header = ["TYPE", "NAME", "SCOPE", "REGISTERED AT"]
      let rows = plugin.registrations.map { registration in
        [
          type(registration), name(registration),
          registration.scope + (registration.hooks.map { " (\($0.joined(separator: ", ")) hooks)" } ?? ""),
          "\(registration.file):\(registration.line)",
        ]
      }
      TextTable(rows: [header] + rows).append(to: &text, indent: "  ")
      SettingListing.lines(plugin.settings).forEach(add)
    }
    for point in listing.extensionPoints { point.append(to: &text) }
    return text
  }

  /// `"Mock"`, `-`, or for a contribution `contribution "help"` (its
  /// order is in the extension point's table).
  private static func name(_ registration: DeploymentListing.Registration) -> String {
    let quoted = registration.name.map { "\"\(Terminal.sanitize($0))\"" }
    if registration.decorator != nil { return quoted.map { "decorator \($0)" } ?? "decorator" }
    guard registration.contribution != nil else { return quoted ?? "-" }
    return quoted.map { "contribution \($0)" } ?? "contribution"
  }

  /// `7 plugins: 6 loaded, 1 disabled, 0 failed; 12 registrations`.
  private static func summary(_ listing: DeploymentListing) -> String {
    func count(_ status: DeploymentListing.Status) -> Int {
      listing.plugins.filter { $0.status == status }.count
    }
    let registrations = listing.plugins.map(\.registrations.count).reduce(0, +)
    let plugins = listing.plugins.count
    let excluded = listing.profile.map { ", \(count(.excluded)) not in profile '\($0.name)'" } ?? ""
    return "\(plugins) plugin\(plugins == 1 ? "" : "s"): \(count(.loaded)) loaded\(excluded), "
      + "\(count(.disabled)) disabled, \(count(.failed)) failed; "
      + "\(registrations) registration\(registrations == 1 ? "" : "s")"
  }

  private static func heading(_ plugin: DeploymentListing.Plugin) -> String {
    let notes =
      (plugin.optional == true ? ["optional"] : [])
      + (plugin.discoveredIn.map { ["discovered in \($0)"] } ?? [])
      + (plugin.requires.map { ["requires \($0.joined(separator: ", "))"] } ?? [])
    return base(plugin) + (notes.isEmpty ? "" : "  (\(notes.joined(separator: "; ")))")
  }

  private static func base(_ plugin: DeploymentListing.Plugin) -> String {
    switch plugin.status {
    case .loaded: "\(plugin.name) \(plugin.version ?? "?")  \(plugin.file)"
    case .failed: "\(plugin.name)  \(plugin.file)  FAILED at \(plugin.stage?.rawValue ?? "?") (see stderr)"
    case .excluded: "\(plugin.name)  \(plugin.file)  not loaded in this profile"
    case .disabled: "\(plugin.name)  \(plugin.file)  disabled"
    }
  }

  /// The type with its runtime argument types, if any: `Cat (String, Int)`.
  /// A forwarded type names its target: `Starter → Engine (forwarded)`.
  private static func type(_ registration: DeploymentListing.Registration) -> String {
    if let decorator = registration.decorator {
      // The decorated type is the decorator's own; its name and a
      // declared order are worth saying.
      let notes =
        (decorator.decorates == registration.type
          ? [] : ["decorates \(Terminal.sanitize(decorator.decorates))"])
        + (decorator.order == 0 ? [] : ["order \(decorator.order)"])
      return registration.type + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
    }
    let forwarded = registration.forwardsTo.map { " → \($0) (forwarded)" } ?? ""
    guard !registration.arguments.isEmpty else { return registration.type + forwarded }
    return "\(registration.type) (\(registration.arguments.joined(separator: ", ")))" + forwarded
  }
}
