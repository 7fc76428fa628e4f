/// What can be said about a registration after it is made.
///
/// Most registrations that say anything only declare dependencies
/// (`dependsOn`, `autoregister`), so those are stored here and everything
/// else (``Details``, read and written as if it were stored here too) in
/// one immutable box, replaced on each write: one reference in place of
/// the fields, so such a registration's ``RecordExtras`` stays a small
/// block. Writes happen while registering,
/// not while resolving, so a new box per write costs little.
@dynamicMemberLookup
struct RegistrationMetadata: Sendable {
  /// Dependencies declared with ``ServiceEntry/dependsOn(_:)``, or learned
  /// from an initializer's signature; `nil` when unknown.
  var dependencies: [ServiceKey]?
  /// The details; `nil` while all of them are unset.
  private var box: Box?

  /// What few registrations set.
  struct Details: Sendable {
    /// Dependencies used when present (`resolveIfRegistered`).
    var optionalDependencies: [ServiceKey] = []
    /// The profiles this registration serves; `nil` for all of them.
    var profiles: ProfileCondition?
    /// Why configuration left this contribution out; `nil` when it takes
    /// part (see ``Container/excludeContribution(_:reason:)``).
    var exclusion: String?
    /// Dependencies resolved after construction (see ``DeferredDependency``).
    var deferredDependencies: [DeferredDependency] = []
    /// The key of the registration this forwarded type is served by.
    var forwardsTo: ServiceKey?
    /// The registrations of types forwarded to this one, which take its
    /// scope whenever it is set (``RegistrationRecord/passScopeToForwarders()``).
    var forwarders: [RegistrationRecord] = []
    /// The custom scope last set, in force while the raw scope says so.
    var customScope: CustomScope?
    /// `initCompleted` handlers, in the order they were added; each reads
    /// the instance at the address (of the record's service type).
    var initCompleted: [@Sendable (Resolver, UnsafeMutableRawPointer) throws -> Void] = []
    /// Start and stop hooks (``ServiceEntry/onStart(_:)``), run by the host.
    var lifecycle = LifecycleHooks()
    /// What to do with an instance its scope lets go of
    /// (``ServiceEntry/onDispose(_:)-(_)``).
    var dispose: DisposeHook?
    /// Serves its key only when no other registration of the key does
    /// (``ServiceEntry/asFallback()``).
    var isFallback = false
    /// The instances kept one per distinct arguments, for a registration
    /// made with ``Container/registerPerArguments(_:name:file:line:factory:)``.
    var argumentInstances: ArgumentInstances?
  }

  private final class Box: Sendable {
    let details: Details
    init(_ details: Details) { self.details = details }
  }

  /// The details as one value: for a reader of several of them, since
  /// each read through a member builds a key path and copies the details,
  /// which `plugboard check`'s graph analysis would pay for every detail
  /// of every registration.
  var details: Details { box?.details ?? Self.unset }

  private static let unset = Details()

  subscript<Value>(dynamicMember field: WritableKeyPath<Details, Value>) -> Value {
    get { details[keyPath: field] }
    set {
      var details = box?.details ?? Details()
      details[keyPath: field] = newValue
      box = Box(details)
    }
  }
}
