import Synchronization

/// One registration as the container stores it.
///
/// Resolution works on this non-generic base, so it never looks up generic
/// metadata: the type-specific work (making, copying, destroying an
/// instance) is in methods that ``TypedRecord`` overrides, reached through
/// the vtable. A `.container` instance lives in raw memory sized for the
/// service type, written once before `ready` is released and read after
/// `ready` is acquired.
@usableFromInline
class RegistrationRecord: @unchecked Sendable {
  // Immutable once the container has stored it, except `scope` (atomic),
  // `metadata` (locked), the instance (published through `ready`) and
  // `weakInstance` (locked). `site` and `sequence` are stamped under the
  // container's lock before any snapshot can include the record.
  let key: ServiceKey
  var site = RegistrationSite(fileID: "", line: 0)
  /// Position among all registrations of the owning container.
  var sequence = 0
  /// Unowned, not weak: a weak reference would move the container's
  /// reference count to a side table and make every retain of it slow.
  /// Records can outlive their container inside a `ResolutionError`, whose
  /// custom mirror keeps reflection from reaching this field.
  unowned let owner: Container
  private let scopeStorage: Atomic<UInt8>
  let metadata: Mutex<RegistrationMetadata>
  /// Set once the `.container` instance has been stored.
  @usableFromInline let ready = Atomic<Bool>(false)
  /// Storage for the `.container` instance.
  @usableFromInline let instance: UnsafeMutableRawPointer
  /// The `.weak` instance, held weakly.
  let weakInstance = Mutex(WeakReference())

  @usableFromInline
  init(key: ServiceKey, scope: ObjectScope, owner: Container, instance: UnsafeMutableRawPointer) {
    self.key = key
    self.owner = owner
    self.scopeStorage = Atomic(scope.rawValue)
    self.metadata = Mutex(RegistrationMetadata())
    self.instance = instance
  }

  // MARK: Type-specific work, overridden by TypedRecord

  /// Runs the argument-free factory, initializing `out`.
  func produce(_ resolver: Resolver, into out: UnsafeMutableRawPointer) throws {}
  /// Initializes `destination` with a copy of the instance at `source`.
  func copy(_ source: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer) {}
  /// Deinitializes the instance at the address.
  func destroy(_ pointer: UnsafeMutableRawPointer) {}
  /// The instance as an object, when it is a class instance (for `.weak`).
  func object(at pointer: UnsafeMutableRawPointer) -> AnyObject? { nil }
  /// Initializes `out` from an object, if it is an instance of the type.
  func initialize(_ out: UnsafeMutableRawPointer, from object: AnyObject) -> Bool { false }
  /// Uninitialized memory for one instance; free with `deallocate()`.
  func allocateInstance() -> UnsafeMutableRawPointer { instance }

  var scope: ObjectScope {
    get { ObjectScope(rawValue: scopeStorage.load(ordering: .relaxed)) ?? .transient }
    set { scopeStorage.store(newValue.rawValue, ordering: .relaxed) }
  }

  /// Whether the `.container` instance exists (and `instance` holds it).
  @inlinable @inline(__always)
  var isReady: Bool { ready.load(ordering: .acquiring) }

  var info: RegistrationInfo {
    let metadata = metadata.withLock { $0 }
    return RegistrationInfo(
      key: key, scope: scope, site: site, dependencies: metadata.dependencies,
      optionalDependencies: metadata.optionalDependencies, profiles: metadata.profiles)
  }

  /// Whether this registration takes part when `profile` is active.
  func isActive(inProfile profile: String?) -> Bool {
    metadata.withLock { $0.profiles }?.matches(profile) ?? true
  }
}

/// What can be said about a registration after it is made.
struct RegistrationMetadata: Sendable {
  /// Dependencies declared with ``ServiceEntry/dependsOn(_:)``, or learned
  /// from an initializer's signature; `nil` when unknown.
  var dependencies: [ServiceKey]?
  /// Dependencies used when present (`resolveIfRegistered`).
  var optionalDependencies: [ServiceKey] = []
  /// The profiles this registration serves; `nil` for all of them.
  var profiles: ProfileCondition?
}

/// The part of a registration that knows its service type.
@usableFromInline
class TypedRecord<Service>: RegistrationRecord, @unchecked Sendable {
  @usableFromInline
  init(key: ServiceKey, scope: ObjectScope, owner: Container) {
    super.init(
      key: key, scope: scope, owner: owner,
      instance: UnsafeMutableRawPointer(UnsafeMutablePointer<Service>.allocate(capacity: 1)))
  }

  deinit {
    let typed = instance.assumingMemoryBound(to: Service.self)
    if isReady { typed.deinitialize(count: 1) }
    typed.deallocate()
  }

  override func copy(_ source: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer) {
    destination.assumingMemoryBound(to: Service.self)
      .initialize(to: source.assumingMemoryBound(to: Service.self).pointee)
  }

  override func destroy(_ pointer: UnsafeMutableRawPointer) {
    pointer.assumingMemoryBound(to: Service.self).deinitialize(count: 1)
  }

  override func object(at pointer: UnsafeMutableRawPointer) -> AnyObject? {
    let instance = pointer.assumingMemoryBound(to: Service.self).pointee
    // Only class instances can be held weakly; bridging a value would make
    // a box nobody else holds (or a cached NSNumber).
    guard type(of: instance as Any) is AnyObject.Type else { return nil }
    return instance as AnyObject
  }

  override func initialize(_ out: UnsafeMutableRawPointer, from object: AnyObject) -> Bool {
    guard let instance = object as? Service else { return false }
    out.assumingMemoryBound(to: Service.self).initialize(to: instance)
    return true
  }

  override func allocateInstance() -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(UnsafeMutablePointer<Service>.allocate(capacity: 1))
  }
}

/// A registration whose factory takes only the resolver.
@usableFromInline
final class PlainRecord<Service>: TypedRecord<Service>, @unchecked Sendable {
  let factory: @Sendable (Resolver) throws -> Service

  @usableFromInline
  init(
    key: ServiceKey, scope: ObjectScope, owner: Container,
    factory: @escaping @Sendable (Resolver) throws -> Service
  ) {
    self.factory = factory
    super.init(key: key, scope: scope, owner: owner)
  }

  override func produce(_ resolver: Resolver, into out: UnsafeMutableRawPointer) throws {
    out.assumingMemoryBound(to: Service.self).initialize(to: try factory(resolver))
  }
}

/// A registration whose factory takes runtime arguments.
final class ArgumentRecord<Service, First, each Rest>: TypedRecord<Service>, @unchecked Sendable {
  typealias Factory = @Sendable (Resolver, First, repeat each Rest) throws -> Service
  let factory: Factory

  init(key: ServiceKey, scope: ObjectScope, owner: Container, factory: @escaping Factory) {
    self.factory = factory
    super.init(key: key, scope: scope, owner: owner)
  }
}

struct WeakReference: @unchecked Sendable {
  // Only touched under its Mutex.
  weak var object: AnyObject?
}
