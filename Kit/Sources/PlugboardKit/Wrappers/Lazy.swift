/// A dependency resolved on first use and kept: `Lazy<Engine>` in an
/// initializer, or `try r.resolve(Lazy<Engine>.self)` in a factory, as in
/// Swinject; read it with `try lazy.instance`.
///
/// ```swift
/// final class Car {
///   let engine: Lazy<Engine>
///   init(engine: Lazy<Engine>) { self.engine = engine }
///   func start() throws { try engine.instance.start() }  // resolved here
/// }
/// container.autoregister(Car.self, initializer: Car.init)
/// ```
///
/// Resolving a `Lazy` resolves nothing yet, so a service can depend lazily
/// on one that depends on it. Declare the edge (an `autoregister` parameter
/// or `.dependsOn(Lazy<Engine>.self)`) and `plugboard check` sees it, requires
/// `Engine` to be registered, and does not count it in a cycle.
///
/// The first use resolves the service in the container the `Lazy` came
/// from, with the name and runtime arguments it was requested with. A
/// `.graph` service made then belongs to that resolution, not to the one
/// the `Lazy` was injected in, unless it is used while that one still runs.
/// A `Lazy` holds its container, as a factory's resolver does: a
/// `.container` instance that keeps one keeps the container alive.
public final class Lazy<Service>: @unchecked Sendable {
  // `make` is only called through `state`'s lock discipline below; the
  // arguments it captured are read, never mutated.
  private let make: () throws -> Service
  private let state = Protected<Service?>(nil)

  init(make: @escaping () throws -> Service) {
    self.make = make
  }

  /// The service, resolved on the first read; later reads return the same
  /// instance. Concurrent first reads may each resolve, and all of them
  /// return the one stored first.
  /// - Throws: ``ResolutionError`` when resolving fails (nothing kept, so a
  ///   later read tries again); its chain starts where the `Lazy` was
  ///   injected.
  public var instance: Service {
    get throws {
      if let made = state.withLock({ $0 }) { return made }
      let made = try make()
      return state.withLock { stored in
        if let stored { return stored }
        stored = made
        return made
      }
    }
  }
}

extension Lazy: DeferringWrapper {
  static var kind: DeferredDependency.Kind { .lazy }
}
