extension Container {
  /// Runs `body` with a child container of this one, in which `body`
  /// registers its test doubles; the overrides end with `body`.
  ///
  /// This container is never changed, so tests that run in parallel (Swift
  /// Testing's default) may each override the same services differently.
  /// The child sees every registration of this container and its own
  /// registrations win, also for the dependencies of this container's
  /// transient and `.graph` registrations. This container's singletons
  /// (`.container` scope) stay its own and never capture a child's double,
  /// so no double leaks into another test; override the singleton itself
  /// to replace it.
  ///
  /// ```swift
  /// try app.withOverrides { child in
  ///   child.register((any Clock).self) { _ in FixedClock() }
  ///   #expect(try child.resolve(Greeter.self).greeting == "Good morning")
  /// }
  /// ```
  /// - Throws: whatever `body` throws.
  public func withOverrides<Result>(_ body: (Container) throws -> Result) rethrows -> Result {
    try body(Container(parent: self, defaultObjectScope: defaultObjectScope))
  }

  /// ``withOverrides(_:)`` for an asynchronous `body`.
  public func withOverrides<Result>(
    isolation: isolated (any Actor)? = #isolation, _ body: (Container) async throws -> Result
  ) async rethrows -> Result {
    try await body(Container(parent: self, defaultObjectScope: defaultObjectScope))
  }
}
