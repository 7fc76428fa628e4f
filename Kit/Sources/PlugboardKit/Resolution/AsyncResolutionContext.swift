/// The chain of an async resolution, one link per registration being
/// made, and the `.graph` instances of its top-level request.
///
/// The synchronous ``ResolutionContext`` lives in thread-local storage;
/// an async factory may resume on another thread after each `await`, so
/// the async chain is a task-local linked list instead: every link is
/// immutable, child tasks a factory starts (`async let`) inherit the
/// chain they were started from, and a cycle is a link whose record
/// already appears above it.
final class AsyncResolutionContext: @unchecked Sendable {
  // Immutable but for `graph`, which is shared by the whole request and
  // guards itself.
  @TaskLocal static var current: AsyncResolutionContext?

  /// The registration this link makes; `nil` for the root.
  let record: RegistrationRecord?
  let parent: AsyncResolutionContext?
  /// Links from the root, the root not counted.
  let depth: Int
  let graph: AsyncGraph

  /// The root of a new top-level request.
  init() {
    record = nil
    parent = nil
    depth = 0
    graph = AsyncGraph()
  }

  private init(record: RegistrationRecord, parent: AsyncResolutionContext) {
    self.record = record
    self.parent = parent
    self.depth = parent.depth + 1
    self.graph = parent.graph
  }

  /// The link below this one that makes `record`.
  func entering(_ record: RegistrationRecord) -> AsyncResolutionContext {
    AsyncResolutionContext(record: record, parent: self)
  }

  /// The records being made, from the top-level request down.
  var records: [RegistrationRecord] {
    var result: [RegistrationRecord] = []
    var link: AsyncResolutionContext? = self
    while let current = link, let record = current.record {
      result.append(record)
      link = current.parent
    }
    return result.reversed()
  }

  /// Whether `record` is being made at this link or above it.
  func contains(_ record: RegistrationRecord) -> Bool {
    var link: AsyncResolutionContext? = self
    while let current = link {
      if current.record === record { return true }
      link = current.parent
    }
    return false
  }

  /// Whether `other` is this link or one above it.
  func descends(from other: AsyncResolutionContext) -> Bool {
    var link: AsyncResolutionContext? = self
    while let current = link {
      if current === other { return true }
      link = current.parent
    }
    return false
  }

  /// Runs `body` with this chain's records entered into the calling
  /// thread's ``ResolutionContext``, so that a synchronous resolution
  /// below them reports the whole chain and finds cycles through it. A
  /// synchronous resolution never suspends, so the records are left on
  /// the thread that entered them.
  func enteredIntoThread<Result>(_ body: (ResolutionContext) throws -> Result) rethrows -> Result {
    let records = self.records
    return try ResolutionContext.withCurrent { thread in
      for record in records { thread.push(record, hasArguments: false) }
      defer { for _ in records { thread.pop() } }
      return try body(thread)
    }
  }

  /// The chain as diagnostics show it.
  var links: [ChainLink] {
    records.map { ChainLink(key: $0.key, site: $0.site, scope: $0.scope) }
  }
}

/// The `.graph` (and `.weak`) instances of one top-level async request,
/// released with it. Guarded by a lock: child tasks of one request may
/// resolve at once.
final class AsyncGraph: @unchecked Sendable {
  private let instances = Protected([ObjectIdentifier: (record: RegistrationRecord, value: Any)]())

  /// The instance of `record` kept earlier in this request.
  func instance<Service>(of record: RegistrationRecord, as _: Service.Type) -> Service? {
    instances.withLock { $0[ObjectIdentifier(record)] }?.value as? Service
  }

  /// Keeps `instance` for `record` unless one is kept already (a child
  /// task made it meanwhile), and returns the one kept.
  func keep<Service>(_ instance: Service, of record: RegistrationRecord) -> Service {
    let kept = instances.withLock { kept -> Any? in
      if let earlier = kept[ObjectIdentifier(record)] { return earlier.value }
      kept[ObjectIdentifier(record)] = (record, instance)
      return nil
    }
    return kept as? Service ?? instance
  }
}
