import Synchronization

/// A dependency-injection container: registrations go in, resolved
/// instances come out, and every failure is a ``ResolutionError``.
///
/// The API follows Swinject (`register(_:name:factory:)`, `inObjectScope`,
/// `resolve`), with resolution that throws instead of returning nil.
///
/// Registering is safe from any thread, but is meant for assembly time;
/// resolving is safe from any thread at any time and takes no lock on the
/// hot path: registrations are published as an immutable snapshot that is
/// rebuilt only after a change.
///
/// Registering the same key (type, name and argument types) twice replaces
/// the earlier registration — the later one wins, as in Swinject — and the
/// pair is recorded in ``duplicateRegistrations``.
public final class Container: Resolver, @unchecked Sendable {
  // Mutable state lives behind `state`; `published` is an atomic pointer to
  // the current snapshot, which `state.snapshots` keeps alive.

  /// The container whose registrations this one falls back to.
  public let parent: Container?
  /// The scope of registrations that do not choose one.
  public let defaultObjectScope: ObjectScope
  /// How deep a chain may grow before resolution gives up with
  /// `tooDeep`. Deep chains are resolved on fresh stacks, so the limit is
  /// about runaway recursion, not stack size.
  public let maximumDepth: Int

  struct State {
    var records: [ServiceKey: RegistrationRecord] = [:]
    var order: [ServiceKey] = []
    var sequence = 0
    var duplicates: [DuplicateRegistration] = []
    var snapshots: [Registry] = []
    var plugin: String?
  }

  let state = Mutex(State())
  private let published = Atomic<UnsafeRawPointer?>(nil)

  /// Creates a container.
  /// - Parameters:
  ///   - parent: a container to fall back to. The child sees the parent's
  ///     registrations and may override them without touching the parent.
  ///   - defaultObjectScope: the scope of registrations that set none
  ///     (`.graph` by default, as in Swinject).
  ///   - maximumDepth: see ``maximumDepth``.
  public init(
    parent: Container? = nil, defaultObjectScope: ObjectScope = .graph,
    maximumDepth: Int = 100_000
  ) {
    self.parent = parent
    self.defaultObjectScope = defaultObjectScope
    self.maximumDepth = maximumDepth
  }

  // MARK: Registering

  /// Registers a factory for `serviceType` under `name`.
  ///
  /// The factory receives a resolver for its dependencies, then any runtime
  /// arguments (`{ r, name, age in Cat(name: name, age: age) }`), which
  /// callers pass with `resolve(_:arguments:)`, matched by type. It may
  /// throw; the error reaches the caller wrapped in a ``ResolutionError``
  /// that names the chain.
  ///
  /// `file` and `line` record the registration site for diagnostics.
  @discardableResult
  public func register<Service, each Argument>(
    _ serviceType: Service.Type,
    name: String? = nil,
    file: String = #fileID,
    line: Int = #line,
    factory: @escaping @Sendable (any Resolver, repeat each Argument) throws -> Service
  ) -> ServiceEntry<Service> {
    var arguments: [TypeIdentity] = []
    repeat arguments.append(TypeIdentity((each Argument).self))
    let key = ServiceKey(service: TypeIdentity(serviceType), name: name, arguments: arguments)
    let record = state.withLock { state -> RegistrationRecord in
      let site = RegistrationSite(fileID: file, line: line, plugin: state.plugin)
      let record = TypedRecord<Service, repeat each Argument>(
        key: key, site: site, scope: defaultObjectScope, sequence: state.sequence, owner: self,
        factory: factory)
      state.sequence += 1
      if let replaced = state.records.updateValue(record, forKey: key) {
        state.duplicates.append(
          DuplicateRegistration(key: key, winner: site, replaced: replaced.site))
      } else {
        state.order.append(key)
      }
      published.store(nil, ordering: .releasing)
      return record
    }
    return ServiceEntry(record: record)
  }

  /// Runs `body` with every registration it makes attributed to `plugin`,
  /// so diagnostics can say which plugin made it. The host wraps each
  /// plugin's assemblies in this.
  @discardableResult
  public func attributing<Result>(to plugin: String?, _ body: () throws -> Result) rethrows
    -> Result
  {
    let previous = state.withLock { state in
      defer { state.plugin = plugin }
      return state.plugin
    }
    defer { state.withLock { $0.plugin = previous } }
    return try body()
  }

  // MARK: Inspecting

  /// This container's own registrations (not its parent's), in the order
  /// they were made; a replaced registration is listed once, as its winner.
  public var registrations: [RegistrationInfo] {
    registry.records.map(\.info)
  }

  /// Keys registered twice in this container: which registration won and
  /// which it replaced.
  public var duplicateRegistrations: [DuplicateRegistration] {
    state.withLock { $0.duplicates }
  }

  /// Whether `resolve(serviceType, name:)` would find a registration here or
  /// in a parent (without making anything).
  public func hasRegistration(_ serviceType: any Any.Type, name: String? = nil) -> Bool {
    lookup(ObjectIdentifier(serviceType), name: name) != nil
  }

  // MARK: Snapshots

  /// The current registrations, published on first use after a change.
  @inline(__always)
  var registry: Registry {
    if let pointer = published.load(ordering: .acquiring) {
      return Unmanaged<Registry>.fromOpaque(pointer).takeUnretainedValue()
    }
    return publish()
  }

  private func publish() -> Registry {
    state.withLock { state in
      if let pointer = published.load(ordering: .acquiring) {
        return Unmanaged<Registry>.fromOpaque(pointer).takeUnretainedValue()
      }
      let registry = Registry(records: state.order.compactMap { state.records[$0] })
      // Readers may still hold earlier snapshots without a reference count,
      // so every snapshot lives as long as the container. Snapshots are only
      // rebuilt when registering and resolving interleave.
      state.snapshots.append(registry)
      published.store(UnsafeRawPointer(Unmanaged.passUnretained(registry).toOpaque()), ordering: .releasing)
      return registry
    }
  }

  /// This container's snapshot followed by its ancestors'.
  var registries: [Registry] {
    var result = [registry]
    var next = parent
    while let container = next {
      result.append(container.registry)
      next = container.parent
    }
    return result
  }

  @inline(__always)
  func lookup(_ id: ObjectIdentifier, name: String?) -> RegistrationRecord? {
    if let record = registry.bucket(for: id)?.record(named: name) { return record }
    return parent?.lookup(id, name: name)
  }

  func lookup(_ id: ObjectIdentifier, name: String?, arguments: [ObjectIdentifier])
    -> RegistrationRecord?
  {
    if let record = registry.bucket(for: id)?.record(named: name, arguments: arguments) {
      return record
    }
    return parent?.lookup(id, name: name, arguments: arguments)
  }

  /// Every registration of the type under the name, with any arguments,
  /// here and in parents.
  func argumentVariants(_ id: ObjectIdentifier, name: String?) -> [RegistrationRecord] {
    (registry.bucket(for: id)?.records(named: name) ?? [])
      + (parent?.argumentVariants(id, name: name) ?? [])
  }
}
