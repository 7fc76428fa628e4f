import Synchronization

/// One registration as the container stores it.
///
/// Not generic, so resolution reads it without looking up generic metadata:
/// the type-specific work is in ``InstanceOperations``, and a `.container`
/// instance lives in raw memory sized for the service type, written once
/// before `ready` is released and read after `ready` is acquired.
@usableFromInline
class RegistrationRecord: @unchecked Sendable {
  // Immutable after init, except `scope` (atomic), `metadata` (locked), the
  // instance (published through `ready`) and `weakInstance` (locked).
  let key: ServiceKey
  let site: RegistrationSite
  /// Position among all registrations of the owning container.
  let sequence: Int
  /// Unowned, not weak: a weak reference would move the container's
  /// reference count to a side table and make every retain of it slow.
  /// Records can outlive their container inside a `ResolutionError`, whose
  /// custom mirror keeps reflection from reaching this field.
  unowned let owner: Container
  let operations: InstanceOperations
  private let scopeStorage: Atomic<UInt8>
  let metadata: Mutex<RegistrationMetadata>
  /// Set once the `.container` instance has been stored.
  @usableFromInline let ready = Atomic<Bool>(false)
  /// Storage for the `.container` instance.
  @usableFromInline let instance: UnsafeMutableRawPointer
  /// The `.weak` instance, held weakly.
  let weakInstance = Mutex(WeakReference())

  init(
    key: ServiceKey, site: RegistrationSite, scope: ObjectScope, sequence: Int, owner: Container,
    operations: InstanceOperations
  ) {
    self.key = key
    self.site = site
    self.sequence = sequence
    self.owner = owner
    self.operations = operations
    self.scopeStorage = Atomic(scope.rawValue)
    self.metadata = Mutex(RegistrationMetadata())
    self.instance = UnsafeMutableRawPointer.allocate(
      byteCount: max(operations.size, 1), alignment: operations.alignment)
  }

  deinit {
    if ready.load(ordering: .acquiring) { operations.destroy(instance) }
    instance.deallocate()
  }

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

/// A registration whose factory takes runtime arguments.
final class ArgumentRecord<Service, First, each Rest>: RegistrationRecord, @unchecked Sendable {
  typealias Factory = @Sendable (any Resolver, First, repeat each Rest) throws -> Service
  let factory: Factory

  init(
    key: ServiceKey, site: RegistrationSite, scope: ObjectScope, sequence: Int,
    owner: Container, factory: @escaping Factory
  ) {
    self.factory = factory
    // Making one without its arguments is never asked of this record:
    // argument-less lookups do not match its key.
    let operations = InstanceOperations(Service.self) { _, _ in
      throw CancellationError()
    }
    super.init(
      key: key, site: site, scope: scope, sequence: sequence, owner: owner, operations: operations)
  }
}

struct WeakReference: @unchecked Sendable {
  // Only touched under its Mutex.
  weak var object: AnyObject?
}
