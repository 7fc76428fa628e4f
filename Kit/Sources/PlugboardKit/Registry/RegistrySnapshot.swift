import Synchronization

/// A container's registrations as they were at one moment, for what looks
/// at all of them: the inspection properties, lifecycle hooks, and the
/// suggestions and notes of a ``ResolutionError`` (which keeps the
/// snapshot of the moment it failed).
///
/// Taking one costs an allocation, whatever the number of registrations:
/// it is a count into the container's ``RegistrationLog``. Which registration
/// serves each key, which replaced which and which are left out by the
/// profile are worked out when asked, from the registrations in order;
/// lookups use the container's ``Registry`` instead. That work is kept
/// once done: `plugboard check` asks for ``records`` and ``duplicates``
/// of one snapshot several times, each a dictionary of every key.
final class RegistrySnapshot: @unchecked Sendable {
  // Never mutated after init; the log's records below `count` never change.
  private let log: RegistrationLog
  private let count: Int
  let activeProfile: String?
  let selections: [ObjectIdentifier: ServiceSelection]
  private let worked = Mutex<Outcome?>(nil)
  private let described = Mutex<[RegistrationInfo]?>(nil)

  private typealias Outcome = (records: [RegistrationRecord], duplicates: [DuplicateRegistration])

  init(
    log: RegistrationLog, count: Int, activeProfile: String?,
    selections: [ObjectIdentifier: ServiceSelection]
  ) {
    self.log = log
    self.count = count
    self.activeProfile = activeProfile
    self.selections = selections
  }

  /// Which registrations serve their keys, in registration order, and
  /// which ones later registrations of the same key replaced (in the
  /// order of the replacing ones); the profile's inactive ones take no
  /// part.
  private var outcome: Outcome {
    if let done = worked.withLock({ $0 }) { return done }
    // Worked out outside the lock: two threads asking at once both do the
    // work and get equal answers.
    let done = workOutOutcome()
    worked.withLock { $0 = done }
    return done
  }

  private func workOutOutcome() -> Outcome {
    // Sized up front: growing it would rehash every key.
    var latest: [ServiceKey: Int] = [:]
    latest.reserveCapacity(count)
    var winner = [Bool](repeating: false, count: count)
    var duplicates: [DuplicateRegistration] = []
    var fallbacks: Set<Int> = []
    for index in 0..<count {
      let record = log[index]
      guard record.isActive(inProfile: activeProfile) else { continue }
      let isFallback = record.isFallback
      if isFallback { fallbacks.insert(index) }
      guard let previous = latest[record.key] else {
        latest[record.key] = index
        winner[index] = true
        continue
      }
      // A fallback yields to any other registration of its key, whichever
      // came first, and being replaced is no duplicate: it is what it is for.
      switch (fallbacks.contains(previous), isFallback) {
      case (false, true): continue
      case (true, false): break
      default:
        duplicates.append(
          DuplicateRegistration(key: record.key, winner: record.site, replaced: log[previous].site))
      }
      winner[previous] = false
      winner[index] = true
      latest[record.key] = index
    }
    var records: [RegistrationRecord] = []
    records.reserveCapacity(latest.count)
    for index in 0..<count where winner[index] { records.append(log[index]) }
    return (records, duplicates)
  }

  /// The registrations that serve their keys, in registration order.
  var records: [RegistrationRecord] { outcome.records }
  /// ``records`` described, kept once made: describing a record takes its
  /// metadata's lock, and a check reads them more than once.
  var infos: [RegistrationInfo] {
    if let done = described.withLock({ $0 }) { return done }
    let done = records.map(\.info)
    described.withLock { $0 = done }
    return done
  }
  /// Every replacement of one registration by a later one of the same key
  /// (both active), in the order of the replacing registrations.
  var duplicates: [DuplicateRegistration] { outcome.duplicates }
  /// Every active registration in the order made, replaced ones included:
  /// for a reader that needs each key once and can tell which
  /// registration of it wins (the newest) itself, without ``records``'
  /// dictionary of every key, which would be most of the cost of
  /// describing a miss among many registrations.
  func forEachActive(_ body: (RegistrationRecord) -> Void) {
    forEach(active: true, body)
  }

  /// Registrations whose profiles are not active.
  var inactive: [RegistrationRecord] { inactive { _ in true } }

  /// The registrations whose profiles are not active that `include`
  /// accepts, in the order made, without listing every registration
  /// first: a miss's report asks twice, for one type, and listing every
  /// registration to keep none would be most of its cost.
  func inactive(where include: (RegistrationRecord) -> Bool) -> [RegistrationRecord] {
    var found: [RegistrationRecord] = []
    forEach(active: false) { if include($0) { found.append($0) } }
    return found
  }

  /// Calls `body` with each registration, in the order made, that is
  /// active (or, with `active` false, not active) in the profile.
  private func forEach(active: Bool, _ body: (RegistrationRecord) -> Void) {
    for position in 0..<count {
      let record = log[position]
      if record.isActive(inProfile: activeProfile) == active { body(record) }
    }
  }
}
