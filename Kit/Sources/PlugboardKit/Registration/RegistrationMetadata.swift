/// What can be said about a registration after it is made.
///
/// Most registrations that say anything only declare dependencies
/// (`dependsOn`, `autoregister`), so those are stored here and everything
/// else in one immutable box, replaced on each write: 16 bytes where the
/// fields took 152, so such a registration's ``RecordExtras`` is a 48-byte
/// block rather than a 192-byte one (issue 27). Writes happen while
/// registering, not while resolving, so a new box per write costs little.
struct RegistrationMetadata: Sendable {
  /// Dependencies declared with ``ServiceEntry/dependsOn(_:)``, or learned
  /// from an initializer's signature; `nil` when unknown.
  var dependencies: [ServiceKey]?
  /// Everything else; `nil` while all of it is unset.
  private var box: Box?

  /// The fields few registrations set.
  private struct Fields: Sendable {
    var optionalDependencies: [ServiceKey] = []
    var profiles: ProfileCondition?
    var exclusion: String?
    var deferredDependencies: [DeferredDependency] = []
    var forwardsTo: ServiceKey?
    var customScope: CustomScope?
    var initCompleted: [@Sendable (Resolver, UnsafeMutableRawPointer) throws -> Void] = []
    var lifecycle = LifecycleHooks()
    var dispose: DisposeHook?
  }

  private final class Box: Sendable {
    let fields: Fields
    init(_ fields: Fields) { self.fields = fields }
  }

  private var fields: Fields {
    get { box?.fields ?? Fields() }
    set { box = Box(newValue) }
  }

  /// Dependencies used when present (`resolveIfRegistered`).
  var optionalDependencies: [ServiceKey] {
    get { fields.optionalDependencies }
    set { fields.optionalDependencies = newValue }
  }
  /// The profiles this registration serves; `nil` for all of them.
  var profiles: ProfileCondition? {
    get { box?.fields.profiles }
    set { fields.profiles = newValue }
  }
  /// Why configuration left this contribution out; `nil` when it takes
  /// part (see ``Container/excludeContribution(_:reason:)``).
  var exclusion: String? {
    get { box?.fields.exclusion }
    set { fields.exclusion = newValue }
  }
  /// Dependencies resolved after construction (see ``DeferredDependency``).
  var deferredDependencies: [DeferredDependency] {
    get { fields.deferredDependencies }
    set { fields.deferredDependencies = newValue }
  }
  /// The key of the registration this forwarded type is served by.
  var forwardsTo: ServiceKey? {
    get { box?.fields.forwardsTo }
    set { fields.forwardsTo = newValue }
  }
  /// The custom scope last set, in force while the raw scope says so.
  var customScope: CustomScope? {
    get { box?.fields.customScope }
    set { fields.customScope = newValue }
  }
  /// `initCompleted` handlers, in the order they were added; each reads
  /// the instance at the address (of the record's service type).
  var initCompleted: [@Sendable (Resolver, UnsafeMutableRawPointer) throws -> Void] {
    get { fields.initCompleted }
    set { fields.initCompleted = newValue }
  }
  /// Start and stop hooks (``ServiceEntry/onStart(_:)``), run by the host.
  var lifecycle: LifecycleHooks {
    get { fields.lifecycle }
    set { fields.lifecycle = newValue }
  }
  /// What to do with an instance its scope lets go of
  /// (``ServiceEntry/onDispose(_:)-(_)``).
  var dispose: DisposeHook? {
    get { box?.fields.dispose }
    set { fields.dispose = newValue }
  }
}
