extension Container {
  /// Runs `closure` with every resolution on this thread in `graph`, as
  /// Swinject's `withObjectGraph(_:closure:)`: storages that keep
  /// instances per graph (``GraphStorage``, and `.weak`-parented storage
  /// scopes) hand the same instance to several top-level resolutions:
  ///
  /// ```swift
  /// let graph = GraphIdentifier()
  /// let first = try container.withObjectGraph(graph) { try $0.resolve(Screen.self) }
  /// let second = try container.withObjectGraph(graph) { try $0.resolve(Screen.self) }
  /// // a GraphStorage-scoped dependency of both is one instance while one holds it
  /// ```
  ///
  /// It applies to the storage-factory scopes
  /// (``CustomScope/init(storageFactory:description:parent:)-(_,_,ObjectScope?)``):
  /// the built-in `.graph` keeps its instances in the resolution itself,
  /// which is what keeps a plain resolve free of allocation, so its graph
  /// still ends with each top-level `resolve`.
  /// - Throws: what `closure` throws.
  public func withObjectGraph<Result>(
    _ graph: GraphIdentifier, closure: (Container) throws -> Result
  ) rethrows -> Result {
    try ObjectGraphSession.$pinned.withValue(graph) { try closure(self) }
  }

  /// The `.container` case for a registration in a storage-factory
  /// ``CustomScope``: the instance lives in the registration's
  /// ``InstanceStorage``, keyed by the current object graph.
  func makeInStorage(
    _ record: RegistrationRecord, of scope: CustomScope, in context: ResolutionContext,
    into out: UnsafeMutableRawPointer, make: () throws -> Void
  ) throws {
    let session = ObjectGraphSession.current(in: context)
    let storage = record.withStorage(of: scope) { $0 }
    session.touch(record, storage)
    var home = InstanceStorageHome(record: record, storage: storage, graph: session.identifier)
    try makeOnce(&home, in: context, into: out, produce: make)
  }
}

/// The instance of a registration in a storage-factory ``CustomScope``:
/// in its ``InstanceStorage``, for one object graph, read and written
/// under the record's lock.
struct InstanceStorageHome: InstanceHome {
  let record: RegistrationRecord
  let storage: any InstanceStorage
  let graph: GraphIdentifier

  func kept() -> Any? {
    record.withScopedInstance { _ in storage.instance(inGraph: graph) }
  }

  func initialize(_ out: UnsafeMutableRawPointer, from kept: Any) -> Bool {
    record.initialize(out, fromBoxed: kept)
  }

  func keep(_ out: UnsafeMutableRawPointer) -> Any? {
    let made = record.boxed(out)
    return record.withScopedInstance { _ -> Any? in
      if let kept = storage.instance(inGraph: graph) { return kept }
      storage.setInstance(made, inGraph: graph)
      return nil
    }
  }
}

extension RegistrationRecord {
  /// Runs `body` on this storage-scoped registration's storage, made
  /// with `scope`'s factory if it has none yet, under the record's lock.
  func withStorage<Result>(of scope: CustomScope, _ body: (any InstanceStorage) -> Result) -> Result {
    withScopedInstance { slot in
      if let existing = slot.value as? any InstanceStorage { return body(existing) }
      let made = scope.makeStorage()
      slot.value = made
      return body(made)
    }
  }

  /// Empties this storage-scoped registration's storage, as Swinject's
  /// reset (`instance = nil`), and returns what it kept. A registration
  /// never resolved gets its storage made first, as Swinject's does (its
  /// entry makes the storage on first use, a reset included): the
  /// factory may hand out a storage filled before, which the reset empties.
  func resetStorage(of scope: CustomScope) -> Any? {
    withStorage(of: scope) { storage in
      defer { storage.instance = nil }
      return storage.instance
    }
  }
}

/// The object graph of one top-level resolution, for the storage scopes:
/// kept among the resolution's `.graph` instances (so only a resolution
/// that reaches a storage scope makes one), and released with them when
/// the resolution ends, which is when its storages hear
/// `graphResolutionCompleted()`.
final class ObjectGraphSession {
  /// The graph ``Container/withObjectGraph(_:closure:)`` runs in.
  @TaskLocal static var pinned: GraphIdentifier?

  let identifier: GraphIdentifier
  /// Each storage used in the graph, once; touched only by the thread
  /// running the resolution (a deep chain's helper runs while it waits).
  private var touched: [(record: RegistrationRecord, storage: any InstanceStorage)] = []

  private init(identifier: GraphIdentifier) {
    self.identifier = identifier
  }

  deinit {
    for (record, storage) in touched {
      record.withScopedInstance { _ in storage.graphResolutionCompleted() }
    }
  }

  func touch(_ record: RegistrationRecord, _ storage: any InstanceStorage) {
    if !touched.contains(where: { $0.storage === storage }) { touched.append((record, storage)) }
  }

  /// The session of the resolution `context` runs, made on first use.
  static func current(in context: ResolutionContext) -> ObjectGraphSession {
    if let kept = context.graphInstance(of: marker) {
      return kept.assumingMemoryBound(to: ObjectGraphSession.self).pointee
    }
    var session = ObjectGraphSession(identifier: pinned ?? GraphIdentifier())
    withUnsafeMutablePointer(to: &session) {
      context.keepGraphInstance(of: marker, copying: UnsafeMutableRawPointer($0))
    }
    return session
  }

  /// The registration the session is kept under; never registered in a
  /// container, and its factory never runs.
  private static let marker = PlainRecord<ObjectGraphSession>(
    key: ServiceKey(ObjectGraphSession.self), scope: .graph, owner: markerOwner
  ) { _ in throw ArgumentsRequired() }
  private static let markerOwner = Container()
}
