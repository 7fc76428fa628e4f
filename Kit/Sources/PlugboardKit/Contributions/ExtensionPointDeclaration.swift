/// How many contributions an extension point needs, declared with
/// ``Container/extensionPoint(_:cardinality:file:line:)`` and checked by
/// `plugboard check` in every profile (resolving never fails for it).
public enum Cardinality: String, Sendable, Hashable, CustomStringConvertible {
  /// Any number, none included: what an undeclared extension point gets.
  case any
  /// One or more.
  case atLeastOne
  /// One, no more: a single plugin chooses, and two plugins that both
  /// contribute are a mistake.
  case exactlyOne

  /// `any number`, `at least one`, `exactly one`.
  public var description: String {
    switch self {
    case .any: "any number"
    case .atLeastOne: "at least one"
    case .exactlyOne: "exactly one"
    }
  }

  /// Whether `count` contributions satisfy it.
  public func admits(_ count: Int) -> Bool {
    switch self {
    case .any: true
    case .atLeastOne: count >= 1
    case .exactlyOne: count == 1
    }
  }
}

/// An extension point declared with
/// ``Container/extensionPoint(_:cardinality:file:line:)``: its contract,
/// how many contributions it needs, and where it was declared.
public struct ExtensionPointDeclaration: Sendable, Hashable {
  public let contract: TypeIdentity
  public let cardinality: Cardinality
  /// The `extensionPoint` call, with the plugin whose assembly made it.
  public let site: RegistrationSite
}

extension Container {
  /// Declares that `serviceType` is an extension point needing
  /// `cardinality` contributions, for checks: `plugboard check` reports,
  /// per profile, an extension point whose loaded contributions do not
  /// match (none for `.atLeastOne`, none or several for `.exactlyOne`).
  ///
  /// ```swift
  /// container.extensionPoint((any Command).self, cardinality: .atLeastOne)
  /// ```
  ///
  /// Resolution is unchanged: `resolveAll` returns what there is. The
  /// application that consumes the extension point is the one to declare
  /// it; declared twice, the later declaration is the one checks use.
  public func extensionPoint<Service>(
    _ serviceType: Service.Type, cardinality: Cardinality, file: String = #fileID, line: Int = #line
  ) {
    let plugin = RecordSite.pluginName(state.withLock { $0.plugin })
    contributions.declare(
      ExtensionPointDeclaration(
        contract: TypeIdentity(serviceType), cardinality: cardinality,
        site: RegistrationSite(fileID: file, line: line, plugin: plugin)))
  }

  /// The extension points declared in this container (not its parents),
  /// one per contract, the latest declaration of each, in the order first
  /// declared.
  public var extensionPoints: [ExtensionPointDeclaration] {
    contributions.declarations
  }
}
