/// Where a registration in a storage-factory scope keeps its instance, as
/// Swinject's `InstanceStorage`: the scope made with
/// ``CustomScope/init(storageFactory:description:parent:)-(_,_,ObjectScope?)``
/// gives each registration one storage, made on its first resolution.
///
/// The container calls a storage under its registration's lock, so an
/// implementation needs no lock of its own; it must not resolve. Write one
/// for a lifetime the five storages (``PermanentStorage``,
/// ``TransientStorage``, ``GraphStorage``, ``WeakStorage``,
/// ``CompositeStorage``) do not give:
///
/// ```swift
/// final class ExpiringStorage: InstanceStorage {
///   private var stored: (instance: Any, until: ContinuousClock.Instant)?
///   var instance: Any? {
///     get { stored.flatMap { $0.until > .now ? $0.instance : nil } }
///     set { stored = newValue.map { ($0, .now + .seconds(60)) } }
///   }
/// }
/// ```
public protocol InstanceStorage: AnyObject {
  /// The instance kept, or `nil` for none; set to `nil` by
  /// ``Container/resetObjectScope(_:)-(CustomScope)``.
  var instance: Any? { get set }
  /// A top-level resolution that used this storage ended.
  func graphResolutionCompleted()
  /// The instance kept for `graph`; by default ``instance``.
  func instance(inGraph graph: GraphIdentifier) -> Any?
  /// Keeps `instance` for `graph`; by default sets ``instance``.
  func setInstance(_ instance: Any?, inGraph graph: GraphIdentifier)
}

extension InstanceStorage {
  public func graphResolutionCompleted() {}
  public func instance(inGraph graph: GraphIdentifier) -> Any? { instance }
  public func setInstance(_ instance: Any?, inGraph graph: GraphIdentifier) { self.instance = instance }
}
