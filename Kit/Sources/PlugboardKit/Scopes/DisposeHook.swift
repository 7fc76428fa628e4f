/// A registration's dispose hook, type-erased: it casts the instance back
/// to the service type and calls the closure the plugin wrote.
///
/// Kept in the registration's metadata, behind its lock, so a hook costs
/// resolving nothing: it is read only when a scope ends or a reset drops
/// an instance.
enum DisposeHook: Sendable {
  case sync(@Sendable (Any) throws -> Void)
  case async(@Sendable (Any) async throws -> Void)
}

/// An instance a scope lets go of, with the registration that made it.
///
/// Unchecked: the service type need not be `Sendable`, but once its scope
/// has let go of it the instance is handed to one dispose hook, on one
/// task at a time; it is not shared by the scope any more.
struct DroppedInstance: @unchecked Sendable {
  let record: RegistrationRecord
  let instance: Any
}

/// An instance a registration let go of, with when it was made
/// (``CreationOrder``), so that what a reset drops is disposed newest first.
struct KeptInstance {
  let made: UInt64
  let instance: Any
}

extension RegistrationRecord {
  /// Drops every instance the registration keeps for its `.container` or
  /// custom scope and returns them, for their dispose hooks.
  func dropKeptInstances() -> [KeptInstance] {
    if let instances = argumentInstances {
      return instances.removeAll().map { KeptInstance(made: $0.made, instance: $0.instance) }
    }
    guard isCustomScoped, let scope = customScope else {
      return kept { dropInstance().map(boxed) ?? forgetAsyncInstance() }
    }
    // A storage scope's instances live in its storages, not the record.
    if scope.storageFactory != nil { return kept { resetStorage(of: scope) } }
    return kept { resetScopedInstance().flatMap(instance(fromKept:)) ?? forgetAsyncInstance() }
  }

  /// What `drop` takes, with when it was made. Read before the drop: a
  /// construction that stores meanwhile stamps a later creation, for an
  /// instance this reset misses.
  func kept(_ drop: () -> Any?) -> [KeptInstance] {
    let made = madeAt
    guard let instance = drop() else { return [] }
    return [KeptInstance(made: made, instance: instance)]
  }
}
