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
