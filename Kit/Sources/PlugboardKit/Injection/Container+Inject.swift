extension Container {
  /// Fills every `@Inject` property of `instance` (its class's and its
  /// superclasses' stored properties) from this container.
  ///
  /// - Throws: the ``ResolutionError`` of the first required property
  ///   whose service is missing or fails, the same report as `resolve`.
  ///   Properties after it stay unfilled.
  public func inject(into instance: Any) throws {
    for point in Self.injectionPoints(of: instance) { try point.inject(from: self) }
  }

  /// `instance`, after ``inject(into:)`` filled its `@Inject` properties:
  /// `let screen = try container.injected(ProfileScreen())`.
  /// - Throws: as ``inject(into:)``.
  public func injected<Instance>(_ instance: Instance) throws -> Instance {
    try inject(into: instance)
    return instance
  }
}

extension Container {
  /// Registers `serviceType`, made by `initializer` and then filled by
  /// ``inject(into:)``, with its `@Inject` properties declared as the
  /// registration's dependencies, so `plugboard check` finds one that
  /// nothing registers before anything runs:
  ///
  /// ```swift
  /// final class ProfileScreen {
  ///   @Inject var session: any Session
  ///   @Inject var analytics: (any Analytics)?
  /// }
  ///
  /// container.register(ProfileScreen.self, injecting: ProfileScreen.init)
  /// ```
  ///
  /// A required property is a required dependency; an optional or
  /// defaulted one is optional; `Lazy` and `Provider` are deferred.
  ///
  /// To learn the properties without an instance (Swift reflects only
  /// instances), the initializer runs once here, at registration, and that
  /// instance is dropped: keep it free of side effects, as an `@Inject`
  /// type's initializer normally is (the wrappers resolve nothing until
  /// injected). If it throws, the registration declares nothing, as a
  /// plain closure factory.
  ///
  /// An instance filled by hand with ``inject(into:)`` elsewhere cannot
  /// be seen by a check; registering its type this way is what makes its
  /// holes visible.
  /// - Throws (when resolving): the ``ResolutionError`` of the first
  ///   required property whose service is missing or fails, with the chain
  ///   through this registration; or the initializer's error.
  @discardableResult
  public func register<Service>(
    _ serviceType: Service.Type, name: String? = nil, file: String = #fileID, line: Int = #line,
    injecting initializer: @escaping @Sendable () throws -> Service
  ) -> ServiceEntry<Service> {
    let entry = register(serviceType, name: name, file: file, line: line) { resolver in
      try resolver.injected(initializer())
    }
    if let prototype = try? initializer() {
      entry.record.declare(Self.injectionPoints(of: prototype).map(\.declaredDependency))
    }
    return entry
  }

  /// The `@Inject` wrappers among `instance`'s stored properties, its
  /// superclasses' included, in declaration order.
  static func injectionPoints(of instance: Any) -> [any InjectionPoint] {
    var points: [any InjectionPoint] = []
    var mirror: Mirror? = Mirror(reflecting: instance)
    while let current = mirror {
      for child in current.children {
        if let point = child.value as? any InjectionPoint { points.append(point) }
      }
      mirror = current.superclassMirror
    }
    return points
  }
}
