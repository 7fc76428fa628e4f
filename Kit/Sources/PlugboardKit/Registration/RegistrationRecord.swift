import Synchronization

/// One registration as the container stores it.
///
/// Resolution works on this non-generic base, so it never looks up generic
/// metadata: the type-specific work (copying, destroying an instance) is
/// in methods that ``PlainRecord`` and ``ArgumentRecord`` override, reached through the vtable;
/// the factory is called by the inlinable `resolve`, specialized in the
/// caller, through the record's ``FastSlot``: directly for a plain
/// `.transient` record (see ``Container/enterDirectCall(_:hasArguments:)``),
/// otherwise passed down as a closure. A `.container` instance lives in raw memory sized for the
/// service type, allocated only when the instance is made and published by
/// storing its address with release ordering in the slot: a reader that
/// loads the address (acquiring) sees the instance.
///
/// Not frozen: clients reach a record only through its slot, and hand it
/// back to Kit's functions unopened, so any release may change its fields.
@usableFromInline
class RegistrationRecord: @unchecked Sendable {
  // Immutable once the container has stored it, except the slot's scope
  // and shared instance (atomic), the extras (behind the record's striped
  // lock). `stamp` and `position` are written under the container's lock
  // before any snapshot can include the record.
  //
  // What few registrations have lives in `extras`.
  let key: ServiceKey
  /// What the inlined resolve reads: the kept instance, the scope, the
  /// factory and the argument types. Owned: freed with the record.
  let fast: UnsafeMutablePointer<FastSlot>
  /// The container that made the record. Unretained and unchecked: a
  /// counted reference would cost two atomic operations per registration,
  /// and the record only follows it while resolving in that container or
  /// a child (which holds its parent), when the container is alive. A
  /// `ResolutionError` keeps records past their container; its custom
  /// mirror keeps reflection from following this field.
  unowned(unsafe) let owner: Container
  /// When the instance currently kept (`.container`, `.weak`, custom-scoped)
  /// was made, by ``CreationOrder``: a reset disposes newest first.
  private let creation = Atomic<UInt64>(0)
  /// Metadata and seldom-kept instances, made on the first write.
  // Guarded by the record's striped lock.
  fileprivate var extras: RecordExtras?
  // Unchecked: stamped once under the container's lock before any other
  // thread can see the record, and only read after; the dynamic
  // exclusivity check would be a noticeable part of a registration's cost.
  @exclusivity(unchecked) var stamp: RecordSite
  /// Position among all registrations of the owning container (see
  /// ``sequence``).
  @exclusivity(unchecked) private var position: UInt32 = 0
  /// Whether any `initCompleted` handler (or decorator) was added, so
  /// that making an instance can skip the metadata lock in the common
  /// case, and a direct call knows to decline.
  let hasInitCompleted = Atomic<Bool>(false)
  /// Whether any profile condition, exclusion or fallback mark was set,
  /// so that publishing can skip the metadata lock for the (common)
  /// unconditional registration.
  let hasProfiles = Atomic<Bool>(false)
  /// Whether the service type is a class, learned when first asked: 0
  /// not yet, 1 a class, 2 not.
  private let referenceKind = Atomic<UInt8>(0)

  /// Where the registration was made (see ``RecordSite``).
  var site: RegistrationSite { stamp.site }

  /// Position among all registrations of the owning container. Kept in
  /// 32 bits: four billion registrations would not fit in memory.
  var sequence: Int {
    get { Int(position) }
    set { position = UInt32(truncatingIfNeeded: newValue) }
  }

  /// The raw scope value of a registration in a ``CustomScope``; `scope`
  /// reports it as `.container`, the built-in scope it behaves like.
  static let customScopeValue: UInt8 = 0xFF

  @usableFromInline
  init(key: ServiceKey, scope: ObjectScope, owner: Container) {
    self.key = key
    self.owner = owner
    self.stamp = .unstamped
    self.fast = FastSlot.allocate(scope: scope.rawValue, arguments: key.arguments)
    fast.pointee.record = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
  }

  deinit {
    FastSlot.deallocate(fast)
  }

  /// The type whose unnamed, argument-free requests this registration
  /// would serve, or `nil` for a named one, one with arguments, a
  /// decorator or a contribution: the key of its ``FastTable`` entry.
  final var fastKey: ObjectIdentifier? {
    key.name == nil && key.arguments.isEmpty && key.role == .service ? key.service.id : nil
  }

  /// The key of an unnamed registration with runtime arguments in the
  /// container's table of them (``Container/argumentKey(_:signature:)``),
  /// or `nil` for any other.
  final var argumentKey: UInt? {
    guard key.name == nil, !key.arguments.isEmpty, key.role == .service else { return nil }
    return Container.argumentKey(key.service.id, signature: ArgumentSignature(key.arguments).value)
  }

  /// Whether an instance is a single reference to a Swift class instance,
  /// so copying one is a retain. Asked only where a copy is made (a
  /// `.graph` instance used again), so registering pays no metatype cast.
  final var isReference: Bool {
    switch referenceKind.load(ordering: .relaxed) {
    case 1: return true
    case 2: return false
    default:
      let answer = key.service.type is AnyObject.Type
      referenceKind.store(answer ? 1 : 2, ordering: .relaxed)
      return answer
    }
  }

  // MARK: Type-specific work, overridden by PlainRecord and ArgumentRecord

  /// Initializes `destination` with a copy of the instance at `source`.
  func copy(_ source: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer) {}
  /// Deinitializes the instance at the address.
  func destroy(_ pointer: UnsafeMutableRawPointer) {}
  /// The instance as an object, when it is a class instance (for `.weak`).
  func object(at pointer: UnsafeMutableRawPointer) -> AnyObject? { nil }
  /// Initializes `out` from an object, if it is an instance of the type.
  func initialize(_ out: UnsafeMutableRawPointer, from object: AnyObject) -> Bool { false }
  /// A copy of the instance at the address, boxed (for custom scopes).
  func boxed(_ pointer: UnsafeMutableRawPointer) -> Any { () }
  /// Initializes `out` from a boxed instance, if it is one of the type.
  func initialize(_ out: UnsafeMutableRawPointer, fromBoxed value: Any) -> Bool { false }
  /// Registers `type` in `container` as a forwarding of this registration
  /// when it takes runtime arguments (``ArgumentRecord``), with the same
  /// ones; `nil` for one that takes none.
  func forwarding<Forwarded>(
    _ type: Forwarded.Type, name: String?, in container: Container, file: String, line: Int
  ) -> ServiceEntry<Forwarded>? { nil }
  /// Tells `behavior` that `container` took this registration, with the
  /// entry typed as registered; only the generic subclass knows the type.
  func announce(to behavior: any Behavior, in container: Container) {}
  /// Uninitialized memory for one instance; free with `deallocate()`.
  func allocateInstance() -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
  }
  /// Uninitialized memory for one short-lived instance (a `.graph` copy),
  /// not padded to cache lines; free with `deallocate()`.
  func allocateScratch() -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
  }

  /// Whether any `initCompleted` handler was added: one relaxed load.
  @inline(__always)
  final var hasHandlers: Bool {
    hasInitCompleted.load(ordering: .relaxed)
  }

  /// The scope's raw value (``customScopeValue`` for a ``CustomScope``),
  /// to choose a path with one load.
  @inline(__always)
  final var rawScope: UInt8 {
    fast.pointee.scope.load(ordering: .relaxed)
  }

  var scope: ObjectScope {
    get { ObjectScope(rawValue: fast.pointee.scope.load(ordering: .relaxed)) ?? .container }
    set { fast.pointee.scope.store(newValue.rawValue, ordering: .relaxed) }
  }

  /// The custom scope set with ``ServiceEntry/inObjectScope(_:)-(CustomScope)``,
  /// if it is the one in force.
  var customScope: CustomScope? {
    get {
      guard fast.pointee.scope.load(ordering: .relaxed) == Self.customScopeValue else { return nil }
      return readingMetadata { $0.customScope }
    }
    set {
      withMetadata { $0.customScope = newValue }
      if newValue != nil { fast.pointee.scope.store(Self.customScopeValue, ordering: .relaxed) }
    }
  }

  /// Whether the registration is in a custom scope; one atomic load.
  var isCustomScoped: Bool { fast.pointee.scope.load(ordering: .relaxed) == Self.customScopeValue }

  /// Runs `body` on the custom-scoped instance and its scope's generation,
  /// under the record's lock.
  func withScopedInstance<Result>(_ body: (inout (value: Any?, generation: UInt)) -> Result) -> Result {
    StripedLock.withLock(for: self) {
      if let kept = extras?.kept { return body(&kept.scopedInstance) }
      // Asking makes no extras; keeping an instance or a new generation does.
      var scoped: (value: Any?, generation: UInt) = (nil, 0)
      defer { if scoped.value != nil || scoped.generation != 0 { madeKept.scopedInstance = scoped } }
      return body(&scoped)
    }
  }

  /// Drops the custom-scoped instance and starts a new generation, so a
  /// construction begun before does not store its instance. Returns what
  /// was kept (see ``keptForScope(_:)``), for its dispose hook; the caller
  /// releases it outside the lock, since its deinit may resolve or reset
  /// again.
  func resetScopedInstance() -> Any? {
    withScopedInstance { stored -> Any? in
      defer { stored = (nil, stored.generation &+ 1) }
      return stored.value
    }
  }

  /// Forgets an instance an async factory made (kept apart from the
  /// lock-free slot, see `AsyncPlainRecord`) and returns it, for a reset's
  /// dispose hook; `nil` for a synchronous registration.
  func forgetAsyncInstance() -> Any? { nil }

  /// Whether the factory is async (an `AsyncPlainRecord`): one virtual call
  /// where a cast to the generic subclass looked up its metadata on every
  /// async resolve.
  var hasAsyncFactory: Bool { false }

  /// Whether the factory is synchronous and isolated to the main actor (a
  /// `MainActorRecord`): its instances may be made and handed out only
  /// there, so the general path asks before serving a kept one.
  var isolatedToMainActor: Bool { false }

  /// Forgets the `.container` or `.weak` instance (see
  /// ``Container/resetObjectScope(_:)-(ObjectScope)``). A dropped
  /// `.container` instance stays in `dropped` until the record goes: a
  /// lock-free reader may have loaded its address and be copying it.
  /// Returns the dropped `.container` instance's storage, for its dispose
  /// hook: exactly one of several resets at once gets it.
  func dropInstance() -> UnsafeMutableRawPointer? {
    withWeakObject { $0 = nil }
    guard let instance = fast.pointee.shared.exchange(nil, ordering: .acquiringAndReleasing) else {
      return nil
    }
    // What an unnamed request read without a call is gone too.
    if let id = fastKey { owner.forgetKept(id) }
    StripedLock.withLock(for: self) { madeKept.dropped.append(instance) }
    return instance
  }

  /// Forgets the `.weak` instance and returns it, if it is still alive.
  func forgetWeakObject() -> AnyObject? {
    withWeakObject { object in
      defer { object = nil }
      return object
    }
  }

  /// Records that the instance kept now was just made.
  final func stampCreation() {
    creation.store(CreationOrder.next(), ordering: .relaxed)
  }

  /// When the instance kept now was made, relative to every other one.
  final var madeAt: UInt64 { creation.load(ordering: .relaxed) }

  /// The `.container` instance's storage, if it has been made.
  /// Final, so that callers inline it rather than call it through the
  /// vtable.
  @inline(__always)
  final var sharedInstance: UnsafeMutableRawPointer? { fast.pointee.shared.load(ordering: .acquiring) }

  var info: RegistrationInfo {
    let (dependencies, details, disposes) = readingMetadata {
      ($0.dependencies, $0.details, $0.dispose != nil)
    }
    var info = RegistrationInfo(
      key: key, scope: scope, site: site, dependencies: dependencies,
      optionalDependencies: details.optionalDependencies, profiles: details.profiles,
      deferredDependencies: details.deferredDependencies, forwardsTo: details.forwardsTo,
      customScope: isCustomScoped ? details.customScope?.name : nil, exclusion: details.exclusion)
    info.hasDisposeHook = disposes
    return info
  }

  /// Runs `body` on the metadata, under the record's lock, to change it:
  /// makes the record's extras if it has none. To read, use
  /// ``readingMetadata(_:)``.
  func withMetadata<Result>(_ body: (inout RegistrationMetadata) -> Result) -> Result {
    StripedLock.withLock(for: self) { body(&madeExtras.metadata) }
  }

  /// Runs `body` on the metadata, under the record's lock, without making
  /// extras: a record that has none has the empty metadata.
  func readingMetadata<Result>(_ body: (RegistrationMetadata) -> Result) -> Result {
    StripedLock.withLock(for: self) {
      guard let extras else { return body(Self.noMetadata) }
      return body(extras.metadata)
    }
  }

  /// The metadata of a record that never had any written.
  private static let noMetadata = RegistrationMetadata()

  /// Whether the record has made its extras (for tests of its size).
  var hasExtras: Bool { StripedLock.withLock(for: self) { extras != nil } }

  /// The extras, made if the record has none yet; under the record's lock.
  private var madeExtras: RecordExtras {
    if let extras { return extras }
    let made = RecordExtras()
    extras = made
    return made
  }

  /// The kept instances, made (with the extras) if there are none yet;
  /// under the record's lock.
  private var madeKept: KeptInstances {
    let extras = madeExtras
    if let kept = extras.kept { return kept }
    let made = KeptInstances()
    extras.kept = made
    return made
  }

  /// Runs `body` on the `.weak` instance, under the record's lock.
  func withWeakObject<Result>(_ body: (inout AnyObject?) -> Result) -> Result {
    StripedLock.withLock(for: self) {
      var object = extras?.kept?.weakObject
      defer {
        // Forgetting one never held makes nothing.
        if object != nil || extras?.kept != nil { madeKept.weakObject = object }
      }
      return body(&object)
    }
  }

  /// Adds declarations to the metadata; the declared dependencies become
  /// known (not `nil`) even when `declarations` is empty.
  func declare(_ declarations: [DeclaredDependency]) {
    withMetadata { metadata in
      var required = metadata.dependencies ?? []
      for declaration in declarations {
        switch declaration {
        case .required(let key): required.append(key)
        case .optional(let key): metadata.optionalDependencies.append(key)
        case .deferred(let deferred): metadata.deferredDependencies.append(deferred)
        }
      }
      metadata.dependencies = required
    }
  }

  /// Whether ``ServiceEntry/asFallback()`` made it a default others replace.
  /// Read for every registration when the lookup tables are rebuilt, so
  /// behind ``hasProfiles``, which a fallback sets as well: the flag says
  /// "read the details before choosing this registration".
  var isFallback: Bool {
    hasProfiles.load(ordering: .relaxed) && readingMetadata { $0.details.isFallback }
  }

  /// Whether this registration takes part when `profile` is active: its
  /// profiles match, and configuration did not exclude it.
  func isActive(inProfile profile: String?) -> Bool {
    guard hasProfiles.load(ordering: .relaxed) else { return true }
    return readingMetadata {
      let details = $0.details
      return details.exclusion == nil && (details.profiles?.matches(profile) ?? true)
    }
  }
}

/// The type-specific work of a record, shared by ``PlainRecord`` and
/// ``ArgumentRecord``, each of which overrides the base's methods with
/// these.
///
/// Static functions of a generic enum rather than a generic superclass:
/// every generic class a service type instantiates costs the runtime a
/// demangling and a metadata instantiation the first time the type is
/// registered, and a generic superclass would double that, in what is
/// most of the time a deployment of many plugins spends registering.
@usableFromInline
enum TypedInstance<Service> {
  static func release(_ shared: borrowing Atomic<UnsafeMutableRawPointer?>) {
    guard let instance = shared.load(ordering: .acquiring) else { return }
    instance.assumingMemoryBound(to: Service.self).deinitialize(count: 1)
    instance.deallocate()
  }

  static func copy(_ source: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer) {
    destination.assumingMemoryBound(to: Service.self)
      .initialize(to: source.assumingMemoryBound(to: Service.self).pointee)
  }

  static func destroy(_ pointer: UnsafeMutableRawPointer) {
    pointer.assumingMemoryBound(to: Service.self).deinitialize(count: 1)
  }

  static func object(at pointer: UnsafeMutableRawPointer) -> AnyObject? {
    let instance = pointer.assumingMemoryBound(to: Service.self).pointee
    // Only class instances can be held weakly; bridging a value would make
    // a box nobody else holds (or a cached NSNumber).
    guard type(of: instance as Any) is AnyObject.Type else { return nil }
    return instance as AnyObject
  }

  static func initialize(_ out: UnsafeMutableRawPointer, from value: Any) -> Bool {
    guard let instance = value as? Service else { return false }
    out.assumingMemoryBound(to: Service.self).initialize(to: instance)
    return true
  }

  static func allocateInstance() -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(CacheLine.allocate(Service.self, count: 1))
  }

  static func allocateScratch() -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(UnsafeMutablePointer<Service>.allocate(capacity: 1))
  }

  static func boxed(_ pointer: UnsafeMutableRawPointer) -> Any {
    pointer.assumingMemoryBound(to: Service.self).pointee
  }
}

/// A registration whose factory takes only the resolver, and the one
/// generic class a service type instantiates (see ``TypedInstance``).
@usableFromInline
class PlainRecord<Service>: RegistrationRecord, @unchecked Sendable {
  final let factory: @Sendable (Resolver) throws -> Service

  @usableFromInline
  init(
    key: ServiceKey, scope: ObjectScope, owner: Container,
    factory: @escaping @Sendable (Resolver) throws -> Service
  ) {
    self.factory = factory
    super.init(key: key, scope: scope, owner: owner)
    // A record with arguments puts its own factory in the slot.
    if key.arguments.isEmpty { cell.initialize(to: FactoryCell(factory)) }
  }

  /// The slot's factory cell, for a record without arguments.
  private final var cell: UnsafeMutablePointer<FactoryCell<Service>> {
    fast.pointee.factory.assumingMemoryBound(to: FactoryCell<Service>.self)
  }

  deinit {
    if key.arguments.isEmpty { cell.deinitialize(count: 1) }
    TypedInstance<Service>.release(fast.pointee.shared)
    for instance in extras?.kept?.dropped ?? [] {
      TypedInstance<Service>.destroy(instance)
      instance.deallocate()
    }
  }

  override func copy(_ source: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer) {
    TypedInstance<Service>.copy(source, to: destination)
  }
  override func destroy(_ pointer: UnsafeMutableRawPointer) { TypedInstance<Service>.destroy(pointer) }
  override func object(at pointer: UnsafeMutableRawPointer) -> AnyObject? {
    TypedInstance<Service>.object(at: pointer)
  }
  override func initialize(_ out: UnsafeMutableRawPointer, from object: AnyObject) -> Bool {
    TypedInstance<Service>.initialize(out, from: object)
  }
  override func allocateInstance() -> UnsafeMutableRawPointer { TypedInstance<Service>.allocateInstance() }
  override func allocateScratch() -> UnsafeMutableRawPointer { TypedInstance<Service>.allocateScratch() }
  override func boxed(_ pointer: UnsafeMutableRawPointer) -> Any { TypedInstance<Service>.boxed(pointer) }
  override func initialize(_ out: UnsafeMutableRawPointer, fromBoxed value: Any) -> Bool {
    TypedInstance<Service>.initialize(out, from: value)
  }
  override func announce(to behavior: any Behavior, in container: Container) {
    behavior.container(
      container, didRegisterType: Service.self,
      toService: ServiceEntry<Service>(record: self, container: container), withName: key.name)
  }
}

/// A registration whose factory takes runtime arguments.
///
/// A ``PlainRecord`` for the type-specific work it inherits; its
/// argument-free factory is never called, because only keys without
/// arguments reach a plain record's factory and this record's key has
/// some.
///
/// One registered with an `async` factory (`{ r, user async throws in … }`)
/// keeps it in `asyncFactory`, and its `argumentFactory` throws
/// ``AsyncRegistrationRequired``: a synchronous `resolve(_:arguments:)`
/// reaches it by the usual path and fails with
/// ``ResolutionError/Kind/asyncRegistration``. (Not a subclass: a generic
/// class declaring a type pack cannot be inherited from.)
@usableFromInline
final class ArgumentRecord<Service, First, each Rest>: PlainRecord<Service>, AsyncRecord,
  @unchecked Sendable
{
  typealias Factory = @Sendable (Resolver, First, repeat each Rest) throws -> Service
  let argumentFactory: Factory
  /// The async factory, when there is one; only the async resolve calls it.
  let asyncFactory: AwaitedArgumentFactory?
  /// The `.container` instance an async resolve made.
  // Guarded by the record's striped lock (see `AsyncRecord`).
  var madeInstance: Service?

  init(
    key: ServiceKey, scope: ObjectScope, owner: Container, factory: @escaping Factory,
    asyncFactory: AwaitedArgumentFactory? = nil
  ) {
    self.argumentFactory = factory
    self.asyncFactory = asyncFactory
    super.init(key: key, scope: scope, owner: owner) { _ in throw ArgumentsRequired() }
    cell.initialize(to: ArgumentFactoryCell(factory))
  }

  deinit {
    cell.deinitialize(count: 1)
  }

  /// The slot's factory cell.
  private var cell: UnsafeMutablePointer<ArgumentFactoryCell<Service, First, repeat each Rest>> {
    fast.pointee.factory.assumingMemoryBound(to: ArgumentFactoryCell<Service, First, repeat each Rest>.self)
  }

  override var hasAsyncFactory: Bool { asyncFactory != nil }

  override func forgetAsyncInstance() -> Any? { forgetMadeInstance() }

  override var info: RegistrationInfo {
    guard let asyncFactory else { return super.info }
    return super.info.asAsync(isolation: asyncFactory.isolationName)
  }

  /// Registers `type` in `container`, taking this registration's runtime
  /// arguments and resolving it with them.
  override func forwarding<Forwarded>(
    _ type: Forwarded.Type, name: String?, in container: Container, file: String, line: Int
  ) -> ServiceEntry<Forwarded>? {
    let target = key
    // A target kept per arguments is forwarded per arguments: kept in the
    // target's `.container` scope, one instance would serve every argument.
    let instances = argumentInstances.map { _ in ArgumentInstances() }
    @Sendable func forward(_ resolver: Resolver, _ first: First, _ rest: repeat each Rest) throws
      -> Forwarded
    {
      func make() throws -> Forwarded {
        try ForwardingError.cast(
          resolver.resolve(Service.self, name: target.name, arguments: first, repeat each rest),
          to: target)
      }
      guard let instances, let key = ArgumentInstances.key(first, repeat each rest) else { return try make() }
      return try resolver.instance(perArguments: key, in: instances, of: Forwarded.self, make: make)
    }
    let entry = container.register(type, name: name, file: file, line: line, factory: forward)
    if let instances { entry.record.withMetadata { $0.argumentInstances = instances } }
    return entry
  }
}

/// What the argument-free factory of an ``ArgumentRecord`` would throw, if
/// anything called it.
struct ArgumentsRequired: Error {}

/// A process-wide count of kept instances made, so that instances of many
/// registrations (and containers) can be put in the order they were made.
enum CreationOrder {
  private static let clock = Atomic<UInt64>(0)

  static func next() -> UInt64 {
    clock.add(1, ordering: .relaxed).newValue
  }
}
