import PlugboardKit

/// Which registrations carry start or stop hooks, as `list` and `explain`
/// name them: `["start", "stop"]`, `["start"]` or `["stop"]`.
struct LifecycleHookNames {
  /// A registration, told apart by its key and where it was made.
  private struct Registration: Hashable {
    let key: ServiceKey
    let site: RegistrationSite
  }

  private let names: [Registration: [String]]

  /// The hooks of `container`'s registrations.
  init(_ container: Container) {
    names = Dictionary(
      container.lifecycleServices.map { service in
        let hooks = [service.hasStartHook ? "start" : nil, service.hasStopHook ? "stop" : nil]
        return (Registration(key: service.key, site: service.registration.site), hooks.compactMap { $0 })
      },
      uniquingKeysWith: { first, _ in first })
  }

  /// The hooks `info`'s registration carries; nil when it has none.
  func of(_ info: RegistrationInfo) -> [String]? {
    // Most deployments have no hooks: no key to hash.
    guard !names.isEmpty else { return nil }
    return names[Registration(key: info.key, site: info.site)]
  }
}
