/// A registration with a start or stop hook (see
/// ``ServiceEntry/onStart(_:)`` and ``ServiceEntry/onStop(_:)``), as the
/// host sees it: what it is, and how to run its hooks.
public struct LifecycleService: Sendable, CustomStringConvertible {
  /// The registration: its key, scope and site (with its plugin).
  public let registration: RegistrationInfo
  private let hooks: LifecycleHooks

  init(registration: RegistrationInfo, hooks: LifecycleHooks) {
    self.registration = registration
    self.hooks = hooks
  }

  public var key: ServiceKey { registration.key }
  public var hasStartHook: Bool { hooks.start != nil }
  public var hasStopHook: Bool { hooks.stop != nil }

  /// Why the registration cannot carry hooks, or `nil` when it can: only a
  /// `.container` registration without arguments keeps the one instance the
  /// hooks and the application share.
  public var unsupportedReason: String? {
    if let custom = registration.customScope {
      return "it is in the custom scope \"\(custom)\", whose instance can be reset and made again"
    }
    if registration.scope != .container {
      return "it is \(registration.scope), so the instance started is not the one the application gets"
    }
    if !registration.key.arguments.isEmpty {
      return "its factory takes arguments, which a hook cannot supply"
    }
    return nil
  }

  /// Resolves the instance from `container` and awaits its start hook, if
  /// it has one. Throws what resolving or the hook throws.
  public func start(in container: Container) async throws {
    try await hooks.start?(container)
  }

  /// Resolves the instance from `container` and awaits its stop hook, if it
  /// has one. Throws what resolving or the hook throws.
  public func stop(in container: Container) async throws {
    try await hooks.stop?(container)
  }

  public var description: String { registration.description }
}

extension Container {
  /// This container's registrations that have a start or stop hook, in
  /// registration order (winners only; a replaced registration's hooks are
  /// gone with it).
  public var lifecycleServices: [LifecycleService] {
    registry.records.compactMap { record in
      let hooks = record.readingMetadata { $0.lifecycle }
      return hooks.isEmpty ? nil : LifecycleService(registration: record.info, hooks: hooks)
    }
  }
}
