/// Why a resolution failed, with everything needed to act on it.
///
/// Thrown by every `resolve`. Its `description` renders a report in the
/// spirit of Spring Boot's failure analysis: what went wrong, the chain from
/// the request to the failing link with each registration site, suggestions,
/// and an action line. Suggestions are computed only when read, so a failed
/// lookup that nobody prints stays cheap.
public struct ResolutionError: Error, CustomStringConvertible, CustomReflectable {
  public enum Kind: Sendable {
    /// Nothing is registered for the failing key.
    case notRegistered
    /// The failing key is already being resolved further up the chain.
    /// `path` runs from its first appearance back to itself: A → B → C → A.
    case cycle(path: [ServiceKey])
    /// The registration's factory threw `underlying`.
    case factoryFailed(underlying: any Error)
    /// The service is registered under this name, but with other argument
    /// types than the ones passed; `registered` lists each registration's.
    case argumentsMismatch(passed: [TypeIdentity], registered: [[TypeIdentity]])
    /// The chain got deeper than ``Container/maximumDepth``, which almost
    /// always means a registration with arguments resolves itself forever.
    case tooDeep(limit: Int)
  }

  public let kind: Kind
  /// The key that failed: the missing service, the one that closed the
  /// cycle, the one whose factory threw.
  public let key: ServiceKey
  /// From the top-level request (first) to the failing link (last).
  public let chain: [ChainLink]
  /// What the failing container (and its parents) had registered, kept by
  /// reference to the immutable snapshots so that throwing copies nothing.
  let registries: [Registry]

  init(kind: Kind, key: ServiceKey, chain: [ChainLink], registries: [Registry]) {
    self.kind = kind
    self.key = key
    self.chain = chain
    self.registries = registries
  }

  /// What debuggers and test frameworks show: the error's own facts, not
  /// the registry snapshots it keeps for suggestions (whose records point
  /// back at a container that may be gone).
  public var customMirror: Mirror {
    Mirror(self, children: ["kind": kind, "key": key, "chain": chain], displayStyle: .struct)
  }

  /// The key the caller asked for at the top level.
  public var requested: ServiceKey { chain.first?.key ?? key }

  /// Registrations the caller may have meant, most likely first.
  /// Only a request that found nothing, or found the service with other
  /// arguments, gets suggestions.
  public var suggestions: [Suggestion] {
    switch kind {
    case .notRegistered, .argumentsMismatch:
      return Suggestion.candidates(for: key, in: registries)
    case .cycle, .factoryFailed, .tooDeep:
      return []
    }
  }

  /// Facts about configuration that explain a missing registration: a
  /// registration that exists only for another profile, or a profile's
  /// choice of a named registration that does not exist.
  public var notes: [String] {
    guard case .notRegistered = kind else { return [] }
    var notes: [String] = []
    for registry in registries {
      if key.name == nil, let selection = registry.selections[key.service.id] {
        notes.append(
          "Unnamed requests for \(key.service.shortName) are served by its registration named "
            + "\"\(selection.name)\" (\(selection.reason)), and there is none.")
      }
      for record in registry.inactive where record.key.service == key.service {
        guard let profiles = record.info.profiles else { continue }
        let name = record.key.name.map { " named \"\($0)\"" } ?? ""
        let active = registry.activeProfile.map { "the active profile is '\($0)'" } ?? "no profile is active"
        notes.append(
          "\(key.service.shortName)\(name) is registered only for profile \(profiles) "
            + "(at \(record.site)); \(active).")
      }
    }
    return notes
  }

  /// The error a factory threw, when that is what failed, looking through
  /// nested factory failures to the original one.
  public var underlyingError: (any Error)? {
    guard case .factoryFailed(let underlying) = kind else { return nil }
    return underlying
  }
}
