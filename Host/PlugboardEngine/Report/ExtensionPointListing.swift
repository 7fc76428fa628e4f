import PlugboardKit

/// One extension point of a deployment, for `plugboard list`: the contract
/// and every contribution to it that takes part in the active profile, in
/// the order `resolveAll` makes them (declared order, then registration
/// order, which follows the load order).
package struct ExtensionPointListing: Encodable, Sendable {
  /// One contribution to the extension point.
  package struct Contribution: Encodable, Sendable {
    /// The plugin that contributed it; absent for one made outside a plugin.
    package let plugin: String?
    /// The name it was given; absent when it has none.
    package let name: String?
    package let order: Int
    package let scope: String
    /// `#fileID` and line of the `contribute` call.
    package let file: String
    package let line: Int
  }

  /// A contribution the manifest's `contributions` rules leave out.
  package struct LeftOut: Encodable, Sendable {
    package let plugin: String?
    package let name: String?
    package let file: String
    package let line: Int
    /// "excluded by contributions.AppFeature.exclude[0]".
    package let reason: String
  }

  /// The fully qualified contract.
  package let type: String
  package let contributions: [Contribution]
  /// The contributions left out by the manifest, in registration order;
  /// empty (and absent from JSON) when none is.
  package let excluded: [LeftOut]

  private enum CodingKeys: String, CodingKey {
    case type, contributions, excluded
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(type, forKey: .type)
    try container.encode(contributions, forKey: .contributions)
    if !excluded.isEmpty { try container.encode(excluded, forKey: .excluded) }
  }

  /// The extension points of `container`'s active registrations, by the
  /// first contribution's registration order, then those whose every
  /// contribution the manifest left out.
  static func of(_ container: Container, registrations: [RegistrationInfo]) -> [ExtensionPointListing] {
    var points: [TypeIdentity: [(ContributionInfo, RegistrationInfo)]] = [:]
    var contracts: [TypeIdentity] = []
    for info in registrations where info.key.isContribution {
      guard let contribution = container.contribution(of: info.key) else { continue }
      if points[contribution.contract] == nil { contracts.append(contribution.contract) }
      points[contribution.contract, default: []].append((contribution, info))
    }
    var leftOut: [TypeIdentity: [LeftOut]] = [:]
    for info in container.inactiveRegistrations {
      guard let reason = info.exclusion, let contribution = container.contribution(of: info.key) else {
        continue
      }
      if points[contribution.contract] == nil && leftOut[contribution.contract] == nil {
        contracts.append(contribution.contract)
      }
      leftOut[contribution.contract, default: []].append(
        LeftOut(
          plugin: info.site.plugin, name: contribution.name, file: info.site.fileID, line: info.site.line,
          reason: reason))
    }
    return contracts.map { contract in
      let ordered = (points[contract] ?? []).sorted {
        ($0.0.order, $0.0.sequence) < ($1.0.order, $1.0.sequence)
      }
      return ExtensionPointListing(
        type: contract.name,
        contributions: ordered.map { contribution, info in
          Contribution(
            plugin: info.site.plugin, name: contribution.name, order: contribution.order,
            scope: info.scopeName,
            file: info.site.fileID, line: info.site.line)
        },
        excluded: leftOut[contract] ?? [])
    }
  }

  /// The section `list` prints after the plugins: a heading and a table.
  package func append(to text: inout String) {
    let count = contributions.count
    text += "\n\nExtension point \(type): \(count) contribution\(count == 1 ? "" : "s"), in resolution order"
    let header = ["ORDER", "NAME", "PLUGIN", "SCOPE", "REGISTERED AT"]
    let rows = contributions.map { contribution in
      [
        String(contribution.order), contribution.name.map { "\"\(Terminal.sanitize($0))\"" } ?? "-",
        contribution.plugin ?? "-",
        contribution.scope, "\(contribution.file):\(contribution.line)",
      ]
    }
    if !rows.isEmpty { TextTable(rows: [header] + rows).append(to: &text, indent: "  ") }
    for left in excluded {
      let name = left.name.map { "\"\(Terminal.sanitize($0))\"" } ?? "unnamed contribution"
      let plugin = left.plugin.map { "\($0), " } ?? ""
      text += "\n  left out: \(name) (\(plugin)\(left.file):\(left.line)), \(left.reason)"
    }
  }
}
