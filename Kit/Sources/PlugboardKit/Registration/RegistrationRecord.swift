import Synchronization

/// One registration as the container stores it. The untyped base carries
/// everything diagnostics and tools need; ``TypedRecord`` adds the factory.
class RegistrationRecord: @unchecked Sendable {
  // Immutable after init, except `scope` (atomic) and `metadata` (locked),
  // which `ServiceEntry` may adjust while assemblies run.
  let key: ServiceKey
  let site: RegistrationSite
  /// Position among all registrations of the owning container.
  let sequence: Int
  unowned let owner: Container
  private let scopeStorage: Atomic<UInt8>
  let metadata: Mutex<RegistrationMetadata>

  init(key: ServiceKey, site: RegistrationSite, scope: ObjectScope, sequence: Int, owner: Container) {
    self.key = key
    self.site = site
    self.sequence = sequence
    self.owner = owner
    self.scopeStorage = Atomic(scope.rawValue)
    self.metadata = Mutex(RegistrationMetadata())
  }

  var scope: ObjectScope {
    get { ObjectScope(rawValue: scopeStorage.load(ordering: .relaxed)) ?? .transient }
    set { scopeStorage.store(newValue.rawValue, ordering: .relaxed) }
  }

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

/// A registration with its factory and the storage its scope needs.
final class TypedRecord<Service, each Argument>: RegistrationRecord, @unchecked Sendable {
  typealias Factory = @Sendable (any Resolver, repeat each Argument) throws -> Service

  let factory: Factory
  /// The instance of a `.container` registration.
  let shared = InstanceCell<Service>()
  /// The instance of a `.weak` registration, held weakly.
  let weakInstance = Mutex(WeakReference())

  init(
    key: ServiceKey, site: RegistrationSite, scope: ObjectScope, sequence: Int,
    owner: Container, factory: @escaping Factory
  ) {
    self.factory = factory
    super.init(key: key, site: site, scope: scope, sequence: sequence, owner: owner)
  }
}

struct WeakReference: @unchecked Sendable {
  // Only touched under its Mutex.
  weak var object: AnyObject?
}
