import Synchronization

/// Why a resolution failed, with everything needed to act on it.
///
/// Thrown by every `resolve`. Its `description` renders a report in the
/// spirit of Spring Boot's failure analysis: what went wrong, the chain from
/// the request to the failing link with each registration site, suggestions,
/// and an action line. Suggestions are computed only when read, and kept,
/// so a failed lookup that nobody prints stays cheap.
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
    /// The thread's stack was nearly full and the chain could not continue
    /// on a helper thread with a fresh stack, for `reason`.
    case stackExhausted(reason: HopFailure)
    /// The registration's factory is `async` and the request was
    /// synchronous: only `try await` (an ``AsyncResolver``) can make it.
    case asyncRegistration
    /// A `.scoped` registration was resolved where no scope lives: outside
    /// any ``ServiceScope`` (from the container itself, or below a
    /// `.container` factory), or in a scope that has ended.
    case outsideScope(scopeEnded: Bool)
    /// The registration's factory is isolated to the main actor
    /// (`register(_:on: MainActor.self)`) and the synchronous request came
    /// from off it: only main-actor code, or `try await`, can resolve it.
    case mainActorIsolated
  }

  /// One other thread taking part in a cycle across threads: it is making
  /// `making` and waits for `waitsFor`, which the next thread is making.
  struct ThreadWait {
    let making: ServiceKey
    let waitsFor: ServiceKey
  }

  public let kind: Kind
  /// The key that failed: the missing service, the one that closed the
  /// cycle, the one whose factory threw.
  public let key: ServiceKey
  /// From the top-level request (first) to the failing link (last).
  public let chain: [ChainLink]
  /// What the failing container (and its parents) had registered, kept by
  /// reference to the immutable snapshots so that throwing copies nothing.
  let registries: [RegistrySnapshot]
  /// For a cycle across threads, the other threads in it, in cycle order
  /// (the last one waits for an instance this thread is making); empty for
  /// a cycle within one chain.
  let otherThreads: [ThreadWait]
  /// The suggestions, once worked out, for the kinds that get any: each
  /// working out is a pass over every registration, and a report reads
  /// them twice (for its action too), a test or a tool often more.
  private let worked: WorkedSuggestions?

  init(
    kind: Kind, key: ServiceKey, chain: [ChainLink], registries: [RegistrySnapshot],
    otherThreads: [ThreadWait] = []
  ) {
    self.kind = kind
    self.key = key
    self.chain = chain
    self.registries = registries
    self.otherThreads = otherThreads
    switch kind {
    case .notRegistered, .argumentsMismatch:
      worked = WorkedSuggestions()
    case .cycle, .factoryFailed, .tooDeep, .stackExhausted, .asyncRegistration, .outsideScope,
      .mainActorIsolated:
      worked = nil
    }
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
    worked?.value { Suggestion.candidates(for: key, in: registries) } ?? []
  }

  /// Facts about configuration that explain a missing registration: a
  /// registration that exists only for another profile, or a profile's
  /// choice of a named registration that does not exist.
  /// For a cycle across threads, which thread makes what.
  public var notes: [String] {
    if case .cycle = kind, !otherThreads.isEmpty {
      let others = otherThreads.map {
        "another thread is making \($0.making.shortDescription) and waits for "
          + "\($0.waitsFor.shortDescription)"
      }
      return [
        "The cycle crosses \(otherThreads.count + 1) threads: \(others.joined(separator: "; ")), "
          + "which this thread is making; waiting for one another, they would never finish."
      ]
    }
    guard case .notRegistered = kind else { return [] }
    var notes: [String] = []
    for registry in registries {
      if key.name == nil, let selection = registry.selections[key.service.id] {
        notes.append(
          "Unnamed requests for \(key.service.shortName) are served by its registration named "
            + "\"\(selection.name)\" (\(selection.reason)), and there is none.")
      }
      for record in registry.inactive(where: { $0.key.service == key.service }) {
        guard let profiles = record.info.profiles else { continue }
        let name = record.key.name.map { " named \"\($0)\"" } ?? ""
        let active =
          registry.activeProfile.map { "the active profile is '\($0)'" } ?? "no profile is active"
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

/// A ``ResolutionError``'s suggestions once worked out, shared by the
/// copies of the error.
final class WorkedSuggestions: Sendable {
  private let suggestions = Mutex<[Suggestion]?>(nil)

  /// The suggestions, from `work` the first time.
  func value(_ work: () -> [Suggestion]) -> [Suggestion] {
    if let done = suggestions.withLock({ $0 }) { return done }
    // Worked out outside the lock: two threads asking at once both do the
    // work and get equal answers.
    let done = work()
    suggestions.withLock { $0 = done }
    return done
  }
}
