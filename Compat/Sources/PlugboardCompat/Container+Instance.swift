import PlugboardKit

extension Container {
  /// Registers an instance made elsewhere, often after an `await` the
  /// factories cannot do (the `register(Database.self, instance:
  /// database)` spelling some containers use): every request gets
  /// `instance`.
  ///
  /// ```swift
  /// let database = try await Database.connect()
  /// container.register(Database.self, instance: database)
  /// ```
  ///
  /// The registration is `.container`-scoped (one instance, listed as a
  /// singleton) and declares no dependencies, so `plugboard check` sees a
  /// leaf. The container hands `instance` to whichever thread resolves
  /// it, as it does every `.container` instance: it must be safe to use
  /// from there. A `.onDispose` hook set on the entry runs for it at
  /// ``resetObjectScope(_:)-(ObjectScope)``, after which the next request
  /// gets the same instance again.
  @discardableResult
  public func register<Service>(
    _ serviceType: Service.Type, name: String? = nil, instance: Service,
    file: String = #fileID, line: Int = #line
  ) -> ServiceEntry<Service> {
    let held = HeldInstance(instance: instance)
    return register(serviceType, name: name, file: file, line: line) { _ in held.instance }
      .inObjectScope(.container)
      .dependsOn()
  }
}

/// An instance given to ``Container/register(_:name:instance:file:line:)``,
/// carried into the `@Sendable` factory. Unchecked because the container
/// shares every `.container` instance across threads anyway; this one is
/// no different from one its factory made.
private struct HeldInstance<Service>: @unchecked Sendable {
  let instance: Service
}
