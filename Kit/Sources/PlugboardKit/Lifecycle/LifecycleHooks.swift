/// The start and stop hooks of one registration, type-erased: each resolves
/// the registration's instance from the container it is given and calls the
/// hook the plugin wrote with it.
///
/// Stored in the registration's metadata, behind its lock, so setting a hook
/// costs the resolve path nothing.
struct LifecycleHooks: Sendable {
  typealias Hook = @Sendable (Container) async throws -> Void

  var start: Hook?
  var stop: Hook?

  var isEmpty: Bool { start == nil && stop == nil }
}
