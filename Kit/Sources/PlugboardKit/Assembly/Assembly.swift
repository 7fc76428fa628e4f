/// A group of registrations, as in Swinject: one per layer or feature.
///
/// ```swift
/// struct StorageAssembly: Assembly {
///   func assemble(container: Container) {
///     container.register(Database.self) { _ in Database() }
///       .inObjectScope(.container)
///     container.register(UserStore.self) { r in
///       UserStore(database: try r.resolve())
///     }
///   }
/// }
/// ```
///
/// `assemble(container:)` registers; `loaded(resolver:)` runs once every
/// assembly given to the same ``Assembler`` (or, in the host, every
/// plugin) has registered, for work that needs the whole graph.
public protocol Assembly {
  /// Registers this assembly's services. May throw to refuse assembling
  /// (a missing configuration value, say); the error names this assembly.
  func assemble(container: Container) throws

  /// Called after every assembly has registered. The default does nothing.
  func loaded(resolver: Resolver) throws
}

extension Assembly {
  public func loaded(resolver: Resolver) throws {}
}
