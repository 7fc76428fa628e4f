import Synchronization

/// A dependency-injection container: registrations go in, resolved
/// instances come out, and every failure is a ``ResolutionError``.
///
/// ```swift
/// let container = Container()
/// container.register(Database.self) { _ in Database() }
///   .inObjectScope(.container)
/// container.register(UserStore.self) { r in
///   UserStore(database: try r.resolve())
/// }
/// let store = try container.resolve(UserStore.self)
/// ```
///
/// The API follows Swinject (`register(_:name:factory:)`, `inObjectScope`,
/// `resolve`), with resolution that throws instead of returning nil.
///
/// Registering is safe from any thread, but is meant for assembly time;
/// resolving is safe from any thread at any time and takes no lock on the
/// hot path: registrations are published into lookup tables that readers
/// see change atomically, one registration at a time.
///
/// Registering the same key (type, name and argument types) twice replaces
/// the earlier registration — the later one wins, as in Swinject — and the
/// pair is recorded in ``duplicateRegistrations``.
public final class Container: @unchecked Sendable {
  // Mutable state lives behind `state`; `published` is an atomic pointer to
  // the current registry, which `state.current` keeps alive, or nil while
  // registrations wait to be published into it. Replaced registries wait
  // in `state.retired` until `ReaderGate` says no lock-free reader can
  // still hold one.

  /// The container whose registrations this one falls back to.
  public let parent: Container?
  /// The scope of registrations that do not choose one.
  public let defaultObjectScope: ObjectScope
  /// How deep a chain may grow before resolution gives up with
  /// `tooDeep`. Deep chains continue on helper threads with fresh stacks
  /// when the calling thread's stack runs low, so the limit is about
  /// runaway recursion, not stack size; a chain that needs a fresh stack
  /// and cannot get one fails with `stackExhausted`.
  public let maximumDepth: Int
  /// The helper threads deep chains continue on; tests substitute their own.
  let hopThreads: HopThreads
  /// What Kit's own lookups read on every request (see ``ContainerHotPath``).
  let hot: UnsafeMutablePointer<ContainerHotPath>
  /// The registrations serving unnamed, argument-free requests, read
  /// without a lock or reader registration (see ``FastTable``); written
  /// under the container's lock.
  let fastKeeper = FastTableKeeper()
  /// Counts the changes that may change what an unnamed request gets here
  /// (see ``forgetKept(_:)``), so that an entry of ``KeptCache`` made from
  /// an answer read before one is not written after it.
  let keptGeneration = Atomic<UInt>(0)
  /// Whether ``KeptCache`` ever held an entry of this container.
  let keptFilled = Atomic<Bool>(false)
  /// The same for the unnamed registrations with runtime arguments, by
  /// type and argument signature (``argumentKey(_:signature:)``), filled
  /// as requests find them.
  let argumentKeeper = FastTableKeeper()
  /// The `.scoped` instances, when this container is a ``ServiceScope``'s
  /// resolver (see Scopes/); `nil` for every other container.
  let scopeStorage: ScopeStorage?

  struct State {
    /// Every registration made here and not removed, in order, including
    /// replaced ones and ones whose profiles are not active.
    var log = RegistrationLog()
    /// The published registry's owner.
    var current: Registry?
    /// Replaced registries that a reader may still be looking at.
    var retired: [Registry] = []
    /// Registrations dropped by `removeAll()`, kept because a resolution
    /// that looked one up before may still be using it, unretained.
    var removed: [RegistrationRecord] = []
    /// Registrations removed by `removeRegistrations(attributedTo:)`, in
    /// order, for diagnostics (`withdrawnRegistrations`).
    var withdrawn: [RegistrationRecord] = []
    /// Registrations made since they were last published into `current`.
    var pending: [RegistrationRecord] = []
    /// Whether the next publication must build a new registry from `log`
    /// (after a removal, or a change of profiles or selections) rather
    /// than publish `pending` into `current`.
    var rebuildAll = true
    /// Whether a registration was ever made a fallback here
    /// (``ServiceEntry/asFallback()``): only then does a rebuild look for
    /// fallbacks to put first.
    var hasFallbacks = false
    /// The plugin being assembled (``attributing(to:_:)``), as a
    /// ``RecordSite`` stores it.
    var plugin = RecordSite.noPlugin
    /// Whether an ``AssemblyAttribution`` made this container and so
    /// decides attribution: ``attributing(to:_:)`` cannot change it.
    var attributionIsHosts = false
    /// The calls of ``attributing(to:_:)`` that named another plugin once
    /// the host decided attribution, in order.
    var refusedAttributions: [RefusedAttribution] = []
    /// The file last registered from and its ``SiteStrings`` number:
    /// registrations come in runs from one file, so most find theirs here
    /// without the process-wide table's lock and hashing.
    var lastFile: (fileID: String, number: UInt32)?
    var activeProfile: String?
    /// Service types whose unnamed requests are served by a named
    /// registration (a profile's per-service choice).
    var selections: [ObjectIdentifier: ServiceSelection] = [:]
    /// The time limit of async dispose hooks set here (``disposeTimeout``).
    var disposeTimeout: Duration?
    /// Told of each registration (Behaviors/).
    var behaviors: [any Behavior] = []

    /// The site of a registration made now at `file`:`line`.
    mutating func site(file: String, line: Int) -> RecordSite {
      let number: UInt32
      if let lastFile, lastFile.fileID == file {
        number = lastFile.number
      } else {
        number = SiteStrings.number(of: file)
        lastFile = (file, number)
      }
      return RecordSite(file: number, line: line, plugin: plugin)
    }
  }

  let state = Protected(State())
  /// The contributions made here, per contract (Container+Contributions).
  let contributions = ContributionIndex()
  /// The decorators declared here, per target (Container+Decorators).
  let decorators = DecoratorIndex()
  /// Whether any ``Behavior`` was added, so that registering without one
  /// costs a load rather than the lock.
  let announcing = Atomic<Bool>(false)

  /// Creates a container.
  /// - Parameters:
  ///   - parent: a container to fall back to. The child sees the parent's
  ///     registrations and may override them without touching the parent.
  ///   - defaultObjectScope: the scope of registrations that set none
  ///     (`.graph` by default, as in Swinject).
  ///   - behaviors: told of each registration made here, as Swinject's
  ///     (see ``Behavior``); a child does not inherit its parent's.
  ///   - maximumDepth: see ``maximumDepth``.
  public init(
    parent: Container? = nil, defaultObjectScope: ObjectScope = .graph,
    behaviors: [any Behavior] = [], maximumDepth: Int = 100_000
  ) {
    self.parent = parent
    self.defaultObjectScope = defaultObjectScope
    self.maximumDepth = maximumDepth
    self.hopThreads = .shared
    self.scopeStorage = nil
    self.hot = ContainerHotPath.allocate(maximumDepth: maximumDepth)
    for behavior in behaviors { addBehavior(behavior) }
  }

  /// Creates a container and hands it to `registeringClosure`, as
  /// Swinject's `Container { c in … }`.
  /// - Throws: what `registeringClosure` throws.
  public convenience init(
    parent: Container? = nil, defaultObjectScope: ObjectScope = .graph,
    behaviors: [any Behavior] = [], maximumDepth: Int = 100_000,
    registeringClosure: (Container) throws -> Void
  ) rethrows {
    self.init(
      parent: parent, defaultObjectScope: defaultObjectScope, behaviors: behaviors,
      maximumDepth: maximumDepth)
    try registeringClosure(self)
  }

  /// A container whose deep chains continue on `hopThreads` rather than the
  /// process's shared helpers.
  init(hopThreads: HopThreads, maximumDepth: Int = 100_000) {
    self.parent = nil
    self.defaultObjectScope = .graph
    self.maximumDepth = maximumDepth
    self.hopThreads = hopThreads
    self.scopeStorage = nil
    self.hot = ContainerHotPath.allocate(maximumDepth: maximumDepth)
  }

  /// The resolver of a ``ServiceScope`` under `parent`, keeping its
  /// `.scoped` instances in `storage`.
  init(scopeOf parent: Container, storage: ScopeStorage) {
    self.parent = parent
    self.defaultObjectScope = parent.defaultObjectScope
    self.maximumDepth = parent.maximumDepth
    self.hopThreads = parent.hopThreads
    self.scopeStorage = storage
    self.hot = ContainerHotPath.allocate(maximumDepth: parent.maximumDepth)
  }

  deinit {
    // Before the address can be another container's.
    if keptFilled.load(ordering: .sequentiallyConsistent) { KeptCache.forget(nil, in: self) }
    ContainerHotPath.deallocate(hot)
  }

  /// Empties what ``KeptCache`` holds of this container for `id` (every
  /// type, with `nil`), once a change that may change what an unnamed
  /// request gets is visible to lookups. The generation first: a fill
  /// that read the earlier one is refused, and one that set
  /// ``keptFilled`` first is seen here and emptied (sequentially
  /// consistent, both).
  func forgetKept(_ id: ObjectIdentifier?) {
    keptGeneration.add(1, ordering: .sequentiallyConsistent)
    guard keptFilled.load(ordering: .sequentiallyConsistent) else { return }
    KeptCache.forget(id, in: self)
  }

  // MARK: Registering

  /// Registers a factory for `serviceType` under `name`.
  ///
  /// The factory receives a resolver for its dependencies. It may throw;
  /// the error reaches the caller wrapped in a ``ResolutionError`` that
  /// names the chain. `file` and `line` record the registration site for
  /// diagnostics.
  ///
  /// Inlinable, so the record's generic type is instantiated once per call
  /// site rather than looked up on every registration.
  @inlinable @discardableResult
  public func register<Service>(
    _ serviceType: Service.Type,
    name: String? = nil,
    file: String = #fileID,
    line: Int = #line,
    factory: @escaping @Sendable (Resolver) throws -> Service
  ) -> ServiceEntry<Service> {
    register(
      serviceType, key: ServiceKey(service: TypeIdentity(serviceType), name: name), file: file, line: line,
      factory: factory)
  }

  /// ``register(_:name:file:line:factory:)`` under `key`, whose role may be
  /// a contribution's.
  @inlinable
  func register<Service>(
    _ serviceType: Service.Type, key: ServiceKey, file: String, line: Int,
    factory: @escaping @Sendable (Resolver) throws -> Service
  ) -> ServiceEntry<Service> {
    let record = PlainRecord(key: key, scope: defaultObjectScope, owner: self, factory: factory)
    add(record, file: file, line: line)
    return ServiceEntry(record: record, container: self)
  }

  /// Registers a factory that takes runtime arguments after the resolver
  /// (`{ r, name, age in Cat(name: name, age: age) }`); callers pass them
  /// with `resolve(_:arguments:)`, matched by their types in order.
  @discardableResult
  public func register<Service, First, each Rest>(
    _ serviceType: Service.Type,
    name: String? = nil,
    file: String = #fileID,
    line: Int = #line,
    factory: @escaping @Sendable (Resolver, First, repeat each Rest) throws -> Service
  ) -> ServiceEntry<Service> {
    var arguments = [TypeIdentity(First.self)]
    repeat arguments.append(TypeIdentity((each Rest).self))
    let key = ServiceKey(service: TypeIdentity(serviceType), name: name, arguments: arguments)
    return register(serviceType, key: key, file: file, line: line, factory: factory)
  }

  /// The registration with runtime arguments under `key`, whose role may
  /// be a decorator's.
  func register<Service, First, each Rest>(
    _ serviceType: Service.Type, key: ServiceKey, file: String, line: Int,
    factory: @escaping @Sendable (Resolver, First, repeat each Rest) throws -> Service
  ) -> ServiceEntry<Service> {
    let record = ArgumentRecord<Service, First, repeat each Rest>(
      key: key, scope: defaultObjectScope, owner: self, factory: factory)
    add(record, file: file, line: line)
    return ServiceEntry(record: record, container: self)
  }

  /// Stores a new record, stamping its site (with the plugin being
  /// assembled) and position, before any resolution can see it.
  @usableFromInline
  func add(_ record: RegistrationRecord, file: String, line: Int) {
    state.withLock { state in
      record.stamp = state.site(file: file, line: line)
      record.sequence = state.log.count
      state.log = state.log.appending(record)
      state.pending.append(record)
      if let id = record.fastKey { fastKeeper.set(nil, for: id) }
      if let key = record.argumentKey { argumentKeeper.set(nil, forKey: key) }
    }
    markIfDecorated(record)
    // Already withdrawn (the common case while assembling): nothing to do.
    // A registry published after the lock above includes the record; one
    // published before it is seen here and withdrawn.
    if hot.pointee.published.load(ordering: .sequentiallyConsistent) != nil {
      hot.pointee.published.store(nil, ordering: .sequentiallyConsistent)
    }
    if let id = record.fastKey { forgetKept(id) }
    if announcing.load(ordering: .acquiring) { announce(record) }
  }

  /// Runs `body` with every registration it makes attributed to `plugin`,
  /// so diagnostics can say which plugin made it: a test or a program that
  /// assembles a container itself names the plugins it stands for.
  ///
  /// ```swift
  /// container.attributing(to: "Auth") { AuthAssembly().assemble(container: container) }
  /// ```
  ///
  /// Attribution is the host's: in a container made by an
  /// ``AssemblyAttribution`` a plugin cannot register in another plugin's
  /// name, nor in no plugin's. There a call naming any plugin but the one
  /// being assembled still runs `body`, but its registrations stay
  /// attributed to the plugin being assembled, and the call is recorded in
  /// ``AssemblyAttribution/refused``, which the host reports as that
  /// plugin's failure. Naming the plugin being assembled changes nothing.
  @discardableResult
  public func attributing<Result>(to plugin: String?, _ body: () throws -> Result) rethrows
    -> Result
  {
    let number = RecordSite.plugin(plugin)
    let previous: UInt32? = state.withLock { state in
      guard state.attributionIsHosts else {
        defer { state.plugin = number }
        return state.plugin
      }
      if number != state.plugin {
        state.refusedAttributions.append(
          RefusedAttribution(plugin: RecordSite.pluginName(state.plugin), claimed: plugin))
      }
      return nil
    }
    guard let previous else { return try body() }
    defer { state.withLock { $0.plugin = previous } }
    return try body()
  }

  /// Removes every registration made here (not the parent's), as Swinject's
  /// `removeAll()`: later requests find only the parent's registrations.
  ///
  /// The active profile and the per-service selections are configuration,
  /// not registrations, and stay. Removed registrations, with their
  /// `.container` and custom-scoped instances, stay alive until the
  /// container goes: a resolution on another thread may still be using one.
  public func removeAll() {
    invalidate { state in
      state.removed += state.log.records(upTo: state.log.count)
      state.log = RegistrationLog()
      state.withdrawn = []
      state.pending = []
    }
    _ = publish()
  }

  /// Removes the registrations made here while attributing to `plugin`
  /// (see ``attributing(to:_:)``), as if that plugin had never assembled:
  /// a registration of another plugin that one of them replaced serves
  /// requests again, and the duplicate report no longer names the pair.
  ///
  /// The host calls it for an optional plugin that failed part-way, so
  /// that the deployment runs without all of it rather than with half.
  /// As with ``removeAll()``, removed registrations and their instances
  /// stay alive until the container goes.
  public func removeRegistrations(attributedTo plugin: String) {
    // A name no site ever had attributes nothing.
    guard let number = RecordSite.existingPlugin(plugin) else { return }
    invalidate { state in
      let all = state.log.records(upTo: state.log.count)
      let removed = all.filter { $0.stamp.plugin == number }
      guard !removed.isEmpty else { return }
      state.removed += removed
      state.withdrawn += removed
      // The next registry is built from what is left, so replacements of
      // the removed registrations are undone.
      state.log = RegistrationLog(all.filter { $0.stamp.plugin != number })
      state.pending.removeAll { $0.stamp.plugin == number }
    }
  }

  /// The registrations ``removeRegistrations(attributedTo:)`` removed, in
  /// the order they were made: for a whole-graph check that says what a
  /// withdrawn plugin would have served, and who needed it.
  public var withdrawnRegistrations: [RegistrationInfo] {
    state.withLock { $0.withdrawn }.map(\.info)
  }

  /// Drops every instance of `scope` held for registrations here and in
  /// the parents (as Swinject's `resetObjectScope`), so the next request
  /// makes new ones: a session scope reset at sign-out. Safe from any
  /// thread; resolutions already holding an instance keep it.
  ///
  /// Each instance dropped is handed to its registration's dispose hook
  /// (`onDispose`), the session told it is over, newest first (in reverse
  /// order of creation, here and in the parents together): synchronous
  /// hooks run before the reset returns, async ones in a task of their
  /// own, each within ``disposeTimeout``. A reset has nobody to throw to,
  /// so a hook's failure is written to the container's ``Logger``
  /// (standard error when none is registered).
  ///
  /// For the built-in scopes, see ``resetObjectScope(_:)-(ObjectScope)``.
  public func resetObjectScope(_ scope: CustomScope) {
    disposeAfterReset { record in
      guard record.isCustomScoped, record.customScope === scope else { return [] }
      return record.dropKeptInstances()
    }
  }

  /// Drops the instances of the built-in `scope` held for registrations
  /// here and in the parents, as Swinject's `resetObjectScope(.container)`:
  /// the next request makes new ones. Safe from any thread.
  ///
  /// `.container` instances are read without a lock, so a resolution on
  /// another thread may be copying one at this moment: each dropped
  /// instance is therefore kept, unreachable, until its registration goes
  /// with the container, and deinitialized only then. Reset to start
  /// over, not to free memory or close resources: for a scope whose
  /// instances must go at once, use a ``CustomScope``, which is kept
  /// behind a lock. A construction running during the reset may still
  /// store its instance. `.weak` instances are forgotten (their holders
  /// keep theirs); `.graph` and `.transient` keep nothing to drop.
  ///
  /// Each instance dropped is handed to its dispose hook (`onDispose`),
  /// newest first, as ``resetObjectScope(_:)-(CustomScope)`` describes:
  /// disposing tells the instance it is done (close its connection, flush
  /// its file), while a `.container` instance's memory stays until the
  /// container goes, for the readers above. A resolution that copied it
  /// just before the reset may still use it after its hook ran. A `.weak`
  /// instance still alive is disposed too, and lives on with its holders,
  /// who should not use it any more; one already gone went with its last
  /// holder, undisposed (there is nothing left to tell).
  public func resetObjectScope(_ scope: ObjectScope) {
    reset(scope) { _ in true }
  }

  /// ``resetObjectScope(_:)-(ObjectScope)`` for the registrations of
  /// `serviceType` only (under any name, with any arguments), as
  /// Swinject 2.10's: `container.resetObjectScope(.container, serviceType: Session.self)`.
  public func resetObjectScope(_ scope: ObjectScope, serviceType: any Any.Type) {
    let id = ObjectIdentifier(serviceType)
    reset(scope) { $0.key.service.id == id }
  }

  private func reset(_ scope: ObjectScope, where include: (RegistrationRecord) -> Bool) {
    disposeAfterReset { record in
      guard !record.isCustomScoped, record.scope == scope, include(record) else { return [] }
      if scope == .weak { return record.kept { record.forgetWeakObject() } }
      return record.dropKeptInstances()
    }
  }

  /// Drops the instances `drop` takes from each registration here and in
  /// the parents, then disposes them all, newest first.
  private func disposeAfterReset(_ drop: (RegistrationRecord) -> [KeptInstance]) {
    Disposal.afterReset(droppedInstances(inParents: true, drop), in: self)
  }

  /// The instances `drop` takes from each registration here (and in the
  /// parents, with `inParents`), in the order they were made.
  func droppedInstances(inParents: Bool, _ drop: (RegistrationRecord) -> [KeptInstance])
    -> [DroppedInstance]
  {
    var dropped: [(made: UInt64, instance: DroppedInstance)] = []
    var next: Container? = self
    while let container = next {
      let records = container.state.withLock { $0.log.records(upTo: $0.log.count) + $0.removed }
      for record in records {
        for kept in drop(record) {
          dropped.append((kept.made, DroppedInstance(record: record, instance: kept.instance)))
        }
      }
      next = inParents ? container.parent : nil
    }
    dropped.sort { $0.made < $1.made }
    return dropped.map(\.instance)
  }

  /// Returns the container itself: Swinject's `synchronize()` makes a
  /// thread-safe view, and every container here is already thread-safe,
  /// so there is nothing to do.
  @discardableResult
  public func synchronize() -> Container { self }

  // MARK: Inspecting

  /// This container's own registrations (not its parent's), in the order
  /// they were made; a replaced registration is listed once, as its winner.
  public var registrations: [RegistrationInfo] {
    inventory(asIf: activeProfile).serving
  }

  /// Keys registered twice in this container: which registration won and
  /// which it replaced.
  public var duplicateRegistrations: [DuplicateRegistration] {
    inventory(asIf: activeProfile).duplicates
  }

  /// Registrations left out because none of their profiles is active.
  public var inactiveRegistrations: [RegistrationInfo] {
    inventory(asIf: activeProfile).inactive
  }

  /// Registrations a request for `key` may have meant (other names, other
  /// arguments, a duplicated module copy, similar type names), as a failed
  /// resolution would suggest them; for whole-graph checks.
  public func suggestions(for key: ServiceKey) -> [Suggestion] {
    Suggestion.candidates(for: key, in: registries)
  }

  // MARK: Profiles

  /// The profile that decides which profile-tagged registrations take part
  /// (see ``ServiceEntry/inProfiles(_:)``). Inherited from the parent when
  /// not set. Changing it takes effect for resolutions that start later.
  public var activeProfile: String? {
    get { state.withLock { $0.activeProfile } ?? parent?.activeProfile }
    set {
      invalidate { $0.activeProfile = newValue }
    }
  }

  /// Serves unnamed requests for `serviceType` with its registration named
  /// `name`: configuration picks the mock a plugin ships beside the real
  /// implementation. `reason` is kept for diagnostics and tools, e.g.
  /// "chosen by profile 'mock'".
  public func select(name: String, for serviceType: TypeIdentity, reason: String) {
    invalidate {
      $0.selections[serviceType.id] = ServiceSelection(service: serviceType, name: name, reason: reason)
    }
  }

  /// The per-service choices in force here.
  public var selections: [ServiceSelection] {
    state.withLock { Array($0.selections.values) }.sorted { $0.service.name < $1.service.name }
  }

  /// Whether `resolve(serviceType, name:)` would find a registration here or
  /// in a parent (without making anything).
  public func hasRegistration(_ serviceType: any Any.Type, name: String? = nil) -> Bool {
    lookup(ObjectIdentifier(serviceType), name: name) != nil
  }

  /// Whether `serviceType` has any registration under `name` here or in a
  /// parent, taking runtime arguments or not, as Swinject's
  /// `hasAnyRegistration(of:name:)`:
  ///
  /// ```swift
  /// container.register(Dog.self) { _, name in Dog(name: name) }
  /// container.hasAnyRegistration(of: Dog.self)  // true
  /// container.hasRegistration(Dog.self)  // false: `resolve(Dog.self)` needs a name
  /// ```
  ///
  /// ``hasRegistration(_:name:)`` answers for the argument-free request
  /// only, so that it never says yes to a `resolve` that then throws.
  public func hasAnyRegistration(of serviceType: any Any.Type, name: String? = nil) -> Bool {
    serves(ObjectIdentifier(serviceType), name: name)
  }

  // MARK: Snapshots

  /// Makes the next resolution build a new registry, after `change`
  /// (made under the container's lock, before anything else) affects which
  /// registrations take part: every answer kept for lock-free readers (the
  /// published registry, the fast tables, ``KeptCache``) is withdrawn with
  /// it.
  func invalidate(after change: (inout State) -> Void = { _ in }) {
    state.withLock { state in
      change(&state)
      state.rebuildAll = true
      fastKeeper.clear()
      argumentKeeper.clear()
    }
    hot.pointee.published.store(nil, ordering: .sequentiallyConsistent)
    forgetKept(nil)
  }

  /// ``invalidate(after:)``, for a registration just made a fallback.
  func invalidateForFallback() {
    invalidate { $0.hasFallbacks = true }
  }

  /// The registrations as they are now, for inspection and diagnostics.
  var registry: RegistrySnapshot {
    let inherited = parent?.activeProfile
    return state.withLock { state in
      RegistrySnapshot(
        log: state.log, count: state.log.count, activeProfile: state.activeProfile ?? inherited,
        selections: state.selections)
    }
  }

  /// The registrations as they would be with `profile` active, the
  /// container left as it is: what ``check(profile:requireApplication:configurations:)`` analyses.
  func registry(asIf profile: String?) -> RegistrySnapshot {
    state.withLock { state in
      RegistrySnapshot(
        log: state.log, count: state.log.count, activeProfile: profile, selections: state.selections)
    }
  }

  /// This container's snapshot followed by its ancestors', each in its
  /// own active profile.
  var registries: [RegistrySnapshot] { lineage.map(\.registry) }

  /// This container followed by its ancestors, nearest first.
  var lineage: [Container] {
    var result = [self]
    var next = parent
    while let container = next {
      result.append(container)
      next = container.parent
    }
    return result
  }

  /// Runs `read` on the published lookup tables, unretained, while this
  /// thread is counted in as a reader, so that a registry replaced
  /// meanwhile is not freed under it; `nil` when none is published (after
  /// a change: the caller then publishes, after this has left, since
  /// publishing frees retired registries only when no reader is counted
  /// in). `read` must not keep the registry beyond the call unless it
  /// retains it.
  @inline(__always)
  func readingPublished<Result>(
    in hot: UnsafeMutablePointer<ContainerHotPath>, _ read: (Registry) -> Result
  ) -> Result? {
    let counter = ReaderGate.enter()
    let pointer = hot.pointee.published.load(ordering: .acquiring)
    // `if let` and a closure around `read`, not `map` and `read` itself:
    // see Registry.swift's note, point 6.
    var result: Result? = nil
    if let pointer {
      result = Unmanaged<Registry>.fromOpaque(pointer)._withUnsafeGuaranteedRef { read($0) }
    }
    ReaderGate.leave(counter)
    return result
  }

  /// The current lookup tables, published on first use after a change.
  var tables: Registry {
    // Retained while the reader is counted in (the closure returns a
    // strong reference), so it outlives the read.
    readingPublished(in: hot) { $0 } ?? publish()
  }

  /// Publishes the registrations made since the last publication, and
  /// frees the replaced registries no reader can still hold.
  ///
  /// The usual change is written into the current registry's tables in
  /// place (see ``Registry/insert(_:)``), at a cost that does not grow
  /// with the registrations before it; a registry is built anew only after
  /// a removal, a change of profile or selections, a change to a type's
  /// bucket, or when the tables run out of room, and then with room for as
  /// many registrations again, so that registering after every resolve
  /// costs amortised constant time.
  @inline(never)
  private func publish() -> Registry {
    state.withLock { state in
      if let pointer = hot.pointee.published.load(ordering: .sequentiallyConsistent) {
        return Unmanaged<Registry>.fromOpaque(pointer).takeUnretainedValue()
      }
      let profile = state.activeProfile ?? parent?.activeProfile
      var room = (types: 0, names: 0)
      if let current = state.current, !state.rebuildAll, current.activeProfile == profile {
        var outcome = Registry.Insertion.placed
        for record in state.pending {
          outcome = current.insert(record)
          if outcome != .placed { break }
        }
        if outcome == .placed {
          for record in state.pending {
            guard let id = record.fastKey else { continue }
            fastKeeper.set(current.plainRecord(for: id)?._withUnsafeGuaranteedRef { $0.fast }, for: id)
          }
          state.pending = []
          hot.pointee.published.store(
            UnsafeRawPointer(Unmanaged.passUnretained(current).toOpaque()),
            ordering: .sequentiallyConsistent)
          return current
        }
        if outcome == .needsRoom { room = current.used }
      }
      let records = state.log.records(upTo: state.log.count)
      let registry = Registry(
        records: state.hasFallbacks ? Self.fallbacksFirst(records) : records,
        activeProfile: profile, selections: state.selections, room: room)
      if let previous = state.current { state.retired.append(previous) }
      state.current = registry
      state.pending = []
      state.rebuildAll = false
      fastKeeper.clear()
      argumentKeeper.clear()
      registry.forEachPlain { id, record in
        fastKeeper.set(record._withUnsafeGuaranteedRef { $0.fast }, for: id)
      }
      hot.pointee.published.store(
        UnsafeRawPointer(Unmanaged.passUnretained(registry).toOpaque()),
        ordering: .sequentiallyConsistent)
      if !state.retired.isEmpty && ReaderGate.isQuiet() { state.retired = [] }
      return registry
    }
  }

  /// `records` with the fallbacks first, so that any other registration of
  /// their key, made before or after, replaces them as a later
  /// registration does. Called only in a container that has fallbacks:
  /// reading each record's details takes a retain and a release per
  /// registration (atomic operations), which the other containers need
  /// not pay on their first publication.
  private static func fallbacksFirst(_ records: [RegistrationRecord]) -> [RegistrationRecord] {
    var fallbacks: [RegistrationRecord] = []
    var others: [RegistrationRecord] = []
    others.reserveCapacity(records.count)
    for record in records {
      if record.isFallback { fallbacks.append(record) } else { others.append(record) }
    }
    return fallbacks + others
  }

  /// The registration serving an argument-free request, here or in a
  /// parent; unretained (the container keeps it alive).
  func lookup(_ id: ObjectIdentifier, name: String?) -> Unmanaged<RegistrationRecord>? {
    let read = readingPublished(in: hot) { Self.find(id, name: name, in: $0) }
    if let read, let read { return read }
    // Nothing published yet since a change: publish, then look.
    if read == nil, let found = Self.find(id, name: name, in: publish()) { return found }
    return parent?.lookup(id, name: name)
  }

  /// The slot of the registration serving an argument-free request that
  /// ``fastKeeper``'s table does not know: a name, a parent's registration, the
  /// first request after a change, which publishes it.
  func slotSlowly(_ id: ObjectIdentifier, name: String?) -> UnsafeMutablePointer<FastSlot>? {
    if let name {
      // A name written as a literal is found in the quick table.
      let quick = readingPublished(in: hot) { $0.quickNamedRecord(for: id, name: name) }
      if let quick, let quick { return quick._withUnsafeGuaranteedRef { $0.fast } }
    }
    return lookup(id, name: name)?._withUnsafeGuaranteedRef { $0.fast }
  }

  @inline(__always)
  private static func find(_ id: ObjectIdentifier, name: String?, in registry: Registry)
    -> Unmanaged<RegistrationRecord>?
  {
    guard let name else { return registry.plainRecord(for: id) }
    return registry.namedRecord(for: id, name: name)
  }

  /// The decorator or contribution of the type stored under `role`, here
  /// or in a parent, unretained.
  func lookup(_ id: ObjectIdentifier, role: ServiceKey.Role) -> Unmanaged<RegistrationRecord>? {
    let read = readingPublished(in: hot) { $0.record(for: id, role: role) }
    if let found = read ?? tables.record(for: id, role: role) { return found }
    return parent?.lookup(id, role: role)
  }

  /// The registration of the type under `name` whose argument types have
  /// `signature`, here or in a parent, unretained; the caller confirms the
  /// types (see ``ArgumentSignature``).
  @inline(__always)
  func lookup(_ id: ObjectIdentifier, name: String?, signature: UInt) -> Unmanaged<
    RegistrationRecord
  >? {
    let read = readingPublished(in: hot) { $0.argumentRecord(for: id, name: name, signature: signature) }
    if let found = read ?? tables.argumentRecord(for: id, name: name, signature: signature) { return found }
    return parent?.lookup(id, name: name, signature: signature)
  }

  func lookup(_ id: ObjectIdentifier, name: String?, arguments: [ObjectIdentifier])
    -> RegistrationRecord?
  {
    if let record = tables.record(for: id, name: name, arguments: arguments) { return record }
    return parent?.lookup(id, name: name, arguments: arguments)
  }

  /// Whether ``argumentVariants(_:name:)`` finds any registration, read as
  /// ``lookup(_:name:)`` reads: with neither a retain of the registry nor
  /// an array.
  func hasRecords(_ id: ObjectIdentifier, name: String?) -> Bool {
    let read = readingPublished(in: hot) { $0.hasRecords(for: id, name: name) }
    if read ?? tables.hasRecords(for: id, name: name) { return true }
    return parent?.hasRecords(id, name: name) ?? false
  }

  /// Whether an argument-free request for the type under the name finds a
  /// registration here or in a parent, or one taking arguments (which then
  /// reports the mismatch), or is a wrapper (`Optional`, `Lazy`,
  /// `Provider`) whose wrapped type does: `resolveIfRegistered` answers
  /// `nil` when not.
  ///
  /// Every miss of `resolveIfRegistered` pays this, so it reads each
  /// registry once, allocates and retains nothing, and leaves the
  /// wrapper cast to ``WrapperTypes``, which remembers the types that are
  /// not wrappers.
  @usableFromInline
  func isServed(_ serviceType: any Any.Type, name: String?) -> Bool {
    if serves(ObjectIdentifier(serviceType), name: name) { return true }
    guard let wrapper = WrapperTypes.wrapper(serviceType) else { return false }
    return wrapper.isServed(in: self, name: name)
  }

  /// ``isServed(_:name:)`` without wrappers.
  private func serves(_ id: ObjectIdentifier, name: String?) -> Bool {
    let read = readingPublished(in: hot) { $0.serves(id, name: name) }
    if read ?? tables.serves(id, name: name) { return true }
    return parent?.serves(id, name: name) ?? false
  }

  /// Every registration of the type under the name, with any arguments,
  /// here and in parents.
  func argumentVariants(_ id: ObjectIdentifier, name: String?) -> [RegistrationRecord] {
    tables.records(for: id, name: name) + (parent?.argumentVariants(id, name: name) ?? [])
  }
}
