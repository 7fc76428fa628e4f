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
