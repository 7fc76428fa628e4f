import PlugboardKit

extension ObjectScope {
  /// `.container` under the name other containers use
  /// (`lifetime: .singleton`): one instance per container.
  public static var singleton: ObjectScope { .container }
}

extension Container {
  /// Registers a factory with its scope given up front, the lifetime
  /// spelling some containers use: `register(Requester.self, lifetime:
  /// .singleton) { r in … }` is `register(Requester.self) { r in … }
  /// .inObjectScope(.container)`. Any ``ObjectScope`` is a lifetime:
  /// `.singleton` (an alias of `.container`), `.transient`, `.graph`,
  /// `.weak`, `.scoped`.
  @discardableResult
  public func register<Service>(
    _ serviceType: Service.Type, name: String? = nil, lifetime: ObjectScope,
    file: String = #fileID, line: Int = #line,
    factory: @escaping @Sendable (Resolver) throws -> Service
  ) -> ServiceEntry<Service> {
    register(serviceType, name: name, file: file, line: line, factory: factory)
      .inObjectScope(lifetime)
  }

  /// `register(_:name:lifetime:factory:)` for a factory that needs
  /// nothing from the container, as code written for those containers
  /// often registers its leaves: `register(KeychainManager.self, lifetime:
  /// .singleton) { KeychainManager() }`.
  ///
  /// A factory with dependencies takes the resolver (`{ r in
  /// AuthProvider(keychain: try r.resolve()) }`) rather than capturing the
  /// container, as such code often does: a captured container keeps itself alive
  /// through its own registration, and each of its `resolve` calls starts
  /// a new object graph that neither shares `.graph` instances with the
  /// request nor shows in its failure chain.
  @discardableResult
  public func register<Service>(
    _ serviceType: Service.Type, name: String? = nil, lifetime: ObjectScope,
    file: String = #fileID, line: Int = #line,
    factory: @escaping @Sendable () throws -> Service
  ) -> ServiceEntry<Service> {
    register(serviceType, name: name, file: file, line: line) { _ in try factory() }
      .inObjectScope(lifetime)
  }
}
