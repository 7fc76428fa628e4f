extension Container {
  /// Registers `serviceType` made by an initializer (or any function) whose
  /// parameters are all resolved from the container:
  /// `container.autoregister(LoginUseCase.self, initializer: LoginUseCase.init)`.
  ///
  /// Unlike a closure factory, the dependencies are known from the
  /// signature without running anything, so `plugboard check` validates
  /// them exactly. Each parameter is resolved unnamed, by its type; an
  /// optional parameter gets `nil` when its type is not registered, and a
  /// `Lazy<T>` or `Provider<T>` parameter resolves `T` on use.
  @discardableResult
  public func autoregister<Service, each Dependency>(
    _ serviceType: Service.Type,
    name: String? = nil,
    file: String = #fileID,
    line: Int = #line,
    initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
  ) -> ServiceEntry<Service> {
    var dependencies: [DeclaredDependency] = []
    repeat dependencies.append(DeclaredDependency.of((each Dependency).self))
    let entry = register(serviceType, name: name, file: file, line: line) { (resolver: Resolver) in
      try initializer(repeat try resolver.resolve((each Dependency).self, name: nil))
    }
    entry.record.declare(dependencies)
    return entry
  }
}
