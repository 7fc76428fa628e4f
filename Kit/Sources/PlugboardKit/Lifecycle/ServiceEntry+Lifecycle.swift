extension ServiceEntry {
  /// Adds a start hook: once the deployment is validated and before its
  /// `Application` runs, the host resolves this registration's instance and
  /// awaits `hook` with it, in dependency order (after the hooked services
  /// it depends on). Open connections, warm caches, bind ports here.
  ///
  /// A hook that throws, or does not return within the host's time limit
  /// (`hookTimeout`), stops the start-up: the services already started are
  /// stopped in reverse, and `plugboard run` names the plugin, the service
  /// and the hook. A timed-out hook's task is cancelled; honour
  /// cancellation (`Task.checkCancellation()`, cancellable awaits).
  ///
  /// Only `.container` registrations (one instance, kept for the container's
  /// life) may carry hooks: a `.transient`, `.graph`, `.weak` or `.scoped`
  /// instance, or one in a custom scope, is not the instance the
  /// application later gets (for `.scoped` ones, see `onDispose`),
  /// so `plugboard check` reports a hook on one as an error and `run`
  /// refuses it. Neither can a registration whose factory takes arguments.
  /// A second `onStart` on the same registration replaces the first.
  @discardableResult
  public func onStart(_ hook: @escaping @Sendable (Service) async throws -> Void) -> ServiceEntry<Service> {
    record.withMetadata { $0.lifecycle.start = erased(hook) }
    return self
  }

  /// Adds a stop hook: after the `Application` ends, or when `plugboard run`
  /// is asked to stop (SIGINT, SIGTERM), the host awaits `hook` with the
  /// instance, in the reverse of the start order (before the hooked
  /// services it depends on). Close connections and flush here.
  ///
  /// Stop hooks run only for services whose start-up completed (or that
  /// have no start hook), each within the host's time limit. A stop hook
  /// that throws or times out is reported on stderr, and the remaining
  /// ones still run. Same scopes as ``onStart(_:)``; a second `onStop`
  /// replaces the first.
  @discardableResult
  public func onStop(_ hook: @escaping @Sendable (Service) async throws -> Void) -> ServiceEntry<Service> {
    record.withMetadata { $0.lifecycle.stop = erased(hook) }
    return self
  }

  /// `hook` as the host calls it: given the container, it resolves this
  /// registration's instance and calls `hook` with it. Awaited, so that a
  /// registration with an async factory can have hooks too.
  private func erased(_ hook: @escaping @Sendable (Service) async throws -> Void) -> LifecycleHooks.Hook {
    let name = key.name
    return { container in
      try await hook(try await container.asyncResolver.resolve(Service.self, name: name))
    }
  }
}
