/// A dependency resolved again on every use: `Provider<Request>`, read with
/// `try provider.instance`, as in Swinject. Each read follows the service's
/// scope (a new `.transient` instance, the same `.container` one).
/// `plugboard check` treats it as ``Lazy``: required, but not in a cycle.
///
/// ```swift
/// final class Downloader {
///   let requests: Provider<Request>
///   init(requests: Provider<Request>) { self.requests = requests }
///   func fetch(_ url: URL) throws -> Data {
///     try requests.instance.send(url)  // a new Request each time
///   }
/// }
/// container.register(Request.self) { _ in Request() }
///   .inObjectScope(.transient)
/// container.autoregister(Downloader.self, initializer: Downloader.init)
/// ```
public final class Provider<Service>: @unchecked Sendable {
  // Immutable; the captured arguments are read, never mutated.
  private let make: () throws -> Service

  init(make: @escaping () throws -> Service) {
    self.make = make
  }

  /// A freshly resolved instance.
  /// - Throws: ``ResolutionError``, its chain starting where the `Provider`
  ///   was injected.
  public var instance: Service {
    get throws { try make() }
  }
}

extension Provider: DeferringWrapper {
  static var kind: DeferredDependency.Kind { .provider }
}
