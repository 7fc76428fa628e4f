import PlugboardKit

extension GraphAnalysis {
  /// Synchronous registrations isolated to no actor that declare a
  /// dependency (`dependsOn`, a `Lazy` or `Provider`, an `initCompleted`
  /// handler) on one whose synchronous factory is isolated to the main
  /// actor (`register(_:on: MainActor.self)`).
  ///
  /// Such a factory resolves it from wherever it is itself resolved, and
  /// a synchronous resolve off the main actor fails: Swift would reject
  /// the same call written out, a nonisolated synchronous function calling
  /// a `@MainActor` one, so this is an error too, even if every request
  /// happens to come from the main actor today. A `Lazy` or `Provider` is
  /// judged by its read, which is synchronous and happens wherever the
  /// dependent uses it; an ``AsyncLazy`` or ``AsyncProvider`` is awaited,
  /// which hops to the main actor, so it is no such dependency. Neither is
  /// a dependent that is isolated to the main actor, or async (its awaited
  /// resolve hops).
  public func nonisolatedDependenciesOnMainActor() -> [Finding] {
    let isIsolated = { (info: RegistrationInfo) in
      !info.isAsync && info.isIsolatedToMainActor
    }
    return synchronousEdges(from: { !$0.isAsync && $0.isolation == nil }, to: isIsolated).map {
      dependent, edge, isolated in
      let (dependentName, isolatedName) = (dependent.key.shortDescription, isolated.key.shortDescription)
      let wrapper: String? =
        switch edge.deferral {
        case .lazy: "Lazy"
        case .provider: "Provider"
        case .afterInit, nil: nil
        @unknown default: nil
        }
      let use =
        wrapper.map {
          "\(dependentName) reads it through a \($0)<\(isolatedName)>, synchronously and not isolated: "
            + "wherever \(dependentName) reads it off the main actor"
        }
        ?? "\(dependentName)'s factory is synchronous and not isolated: wherever \(dependentName) is "
        + "resolved off the main actor"
      let name = dependent.key.name.map { ", name: \"\($0)\"" } ?? ""
      return unservedDependency(
        .nonisolatedDependencyOnMainActor, of: dependent, on: isolated,
        title: "nonisolated dependency on a main-actor registration",
        why: "\(isolatedName)'s factory is isolated to the main actor, so a synchronous resolve serves "
          + "it only there, but \(use), resolving \(isolatedName) fails.",
        markers: ("synchronous, not isolated", "✗ main actor only"),
        action: "Register \(dependent.key.service.shortName) on the main actor too (container.register("
          + "\(dependent.key.service.metatypeSpelling)\(name), on: MainActor.self) { r in … }), or take "
          + "\(isolatedName) through an AsyncLazy or an async factory (try await "
          + "r.resolve(\(isolated.key.service.metatypeSpelling))), which resolve it on the main actor.")
    }
  }
}
