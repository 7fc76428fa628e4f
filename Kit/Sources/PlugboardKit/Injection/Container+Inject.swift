extension Container {
  /// Fills every `@Inject` property of `instance` (its class's and its
  /// superclasses' stored properties) from this container.
  ///
  /// - Throws: the ``ResolutionError`` of the first required property
  ///   whose service is missing or fails, the same report as `resolve`.
  ///   Properties after it stay unfilled.
  public func inject(into instance: Any) throws {
    var mirror: Mirror? = Mirror(reflecting: instance)
    while let current = mirror {
      for child in current.children {
        if let point = child.value as? any InjectionPoint {
          try point.inject(from: self)
        }
      }
      mirror = current.superclassMirror
    }
  }

  /// `instance`, after ``inject(into:)`` filled its `@Inject` properties:
  /// `let screen = try container.injected(ProfileScreen())`.
  /// - Throws: as ``inject(into:)``.
  public func injected<Instance>(_ instance: Instance) throws -> Instance {
    try inject(into: instance)
    return instance
  }
}
