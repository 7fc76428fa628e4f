import PlugboardKit

extension GraphAnalysis {
  /// Start and stop hooks on registrations that cannot carry them: the
  /// instance a `.transient`, `.graph`, `.weak` or custom-scoped
  /// registration gives its hook is not the one the application later
  /// gets, and a factory with arguments cannot be resolved by the host.
  /// `plugboard run` refuses such a deployment, as it refuses any error.
  /// A registration a profile's choice replaces serves no request, and is
  /// not reported.
  public func lifecycleHookScopes() -> [Finding] {
    let services = container.lifecycleServices
    // Most containers have no hooks.
    guard !services.isEmpty else { return [] }
    return services.compactMap { service -> Finding? in
      guard let node = graph.provider(of: service.key), graph.nodes[node].key == service.key,
        let reason = service.unsupportedReason
      else { return nil }
      let info = service.registration
      let name = info.key.shortDescription
      let scope = info.customScope ?? info.scope.description
      return Finding(
        .error, .lifecycleHookScope,
        title: "lifecycle hooks on \(name), which cannot carry them (\(scope))",
        explanation: [
          "\(name) has a start or stop hook (onStart/onStop), but \(reason). "
            + "plugboard run starts and stops one instance per registration, the one the application "
            + "shares: only a .container registration without arguments has one.",
          "It is registered at \(info.site).",
        ],
        chain: [ChainStep(info, marker: "✗ hooks on scope \(scope)")],
        action: "Register \(name) .inObjectScope(.container), or move the hooks to a .container service "
          + "that owns what must be started and stopped.")
    }
  }

  /// Dispose hooks that never run: a `.transient` or `.graph` instance
  /// belongs to whoever resolved it, so no scope's end or reset hands it
  /// to its `onDispose`, and what the hook would close stays open.
  public func disposeHooksThatNeverRun() -> [Finding] {
    inventories[0].serving.compactMap { info -> Finding? in
      guard info.scope == .transient || info.scope == .graph, info.customScope == nil, info.hasDisposeHook
      else { return nil }
      let name = info.key.shortDescription
      return Finding(
        .warning, .lifecycleHookScope,
        title: "a dispose hook on \(name), which is never disposed (\(info.scope))",
        explanation: [
          "\(name) has an onDispose hook, but a \(info.scope) instance belongs to whoever resolved it: no "
            + "scope's end, reset or container.dispose() hands it to the hook, so what the hook would close "
            + "stays open.",
          "It is registered at \(info.site).",
        ],
        chain: [ChainStep(info, marker: "✗ onDispose on scope \(info.scope)")],
        action:
          "Register \(name) .inObjectScope(.scoped) to have it disposed with the scope that made it, or "
          + ".inObjectScope(.container) to have container.dispose() dispose it; or let its owner close it.")
    }
  }

  /// The error for a container that registers no `Application`, which
  /// `plugboard run` resolves first: `plugboard check` always reports it,
  /// ``Container/check(profile:requireApplication:configurations:)`` when
  /// asked. `hooks.providersElsewhere` adds what a deployment knows (a
  /// plugin left out that registers one).
  public func missingApplication(_ hooks: ValidationHooks = ValidationHooks()) -> [Finding] {
    guard graph.root == nil else { return [] }
    let key = DependencyGraph.applicationKey
    let explanation =
      ["`plugboard run` resolves \(key.service.name) from the container, and no loaded plugin registers it."]
      + hooks.providersElsewhere(key)
    return [
      Finding(
        .error, .missingApplication,
        title: "no \(key.service.shortName) is registered; `plugboard run` has nothing to run",
        explanation: explanation,
        suggestions: suggestions(for: key).map(\.description),
        action: "Register the entry point in a plugin the deployment loads: "
          + "container.register((any Application).self) { r in ... }.")
    ]
  }
}
