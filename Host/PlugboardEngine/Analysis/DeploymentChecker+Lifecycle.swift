@_spi(Host) import PlugboardKit

extension DeploymentChecker {
  /// Start and stop hooks on registrations that cannot carry them: the
  /// instance a `.transient`, `.graph`, `.weak` or custom-scoped
  /// registration gives its hook is not the one the application later
  /// gets, and a factory with arguments cannot be resolved by the host.
  /// `run` refuses such a deployment, as it refuses any error.
  func lifecycleHookScopes() -> [Finding] {
    LifecyclePlan(container: deployment.container, graph: graph).refusals.map { refusal in
      let info = refusal.service.registration
      let name = info.key.shortDescription
      let scope = info.customScope ?? info.scope.description
      return Finding(
        .error, .lifecycleHookScope,
        title: "lifecycle hooks on \(name), which cannot carry them (\(scope))",
        explanation: [
          "\(name) has a start or stop hook (onStart/onStop), but \(refusal.reason). "
            + "plugboard run starts and stops one instance per registration, the one the application "
            + "shares: only a .container registration without arguments has one.",
          "It is registered at \(info.site).",
        ],
        chain: [ChainStep(info, marker: "✗ hooks on scope \(scope)")],
        action: "Register \(name) .inObjectScope(.container), or move the hooks to a .container service "
          + "that owns what must be started and stopped.")
    }
  }
}
