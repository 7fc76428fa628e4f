internal import Dispatch

/// A registration whose factory is synchronous and isolated to the main
/// actor (registered with `register(_:on: MainActor.self)`).
///
/// A ``PlainRecord`` whose synchronous factory runs the registered one only
/// on the main actor and otherwise throws ``MainActorIsolationRequired``:
/// a synchronous resolve reaches it by the same paths as any other
/// registration, so other registrations pay nothing for these existing, and
/// turns the error into ``ResolutionError/Kind/mainActorIsolated``.
///
/// What its scope keeps must not reach another thread either, so the
/// resolution checks the actor before serving a kept instance too, and a
/// `.container` instance is kept under the record's lock (as a custom
/// scope's is) rather than in the slot the inlined resolve reads without
/// any check. The async resolution hops to the main actor instead (see
/// ``Container/resolveAsync(_:name:)``).
final class MainActorRecord<Service>: PlainRecord<Service>, @unchecked Sendable {
  init(
    key: ServiceKey, scope: ObjectScope, owner: Container,
    factory: @escaping @MainActor @Sendable (Resolver) throws -> Service
  ) {
    super.init(key: key, scope: scope, owner: owner) { resolver in
      try MainActorIsolation.call(factory, with: resolver)
    }
  }

  override var isolatedToMainActor: Bool { true }

  /// The `.container` instance, kept as a custom scope keeps one.
  override func forgetAsyncInstance() -> Any? {
    resetScopedInstance().flatMap(instance(fromKept:))
  }

  override var info: RegistrationInfo { super.info.isolated(to: MainActorIsolation.name) }

  /// Registers `type` as a forwarding isolated to the main actor too, so
  /// that a synchronous request for it checks the actor as this one does
  /// and an async one hops to it.
  override func forwarding<Forwarded>(
    _ type: Forwarded.Type, name: String?, in container: Container, file: String, line: Int
  ) -> ServiceEntry<Forwarded>? {
    let target = key
    return container.register(type, name: name, on: MainActor.self, file: file, line: line) { resolver in
      try ForwardingError.cast(resolver.resolve(Service.self, name: target.name), to: target)
    }
  }
}

/// Whether synchronous code runs on the main actor, which the type system
/// cannot tell a nonisolated `resolve`, and running a main-actor factory
/// from there.
enum MainActorIsolation {
  /// How ``RegistrationInfo/isolation`` names the main actor, as it names
  /// the actor of an isolated async factory.
  static let name = "MainActor"

  /// A key set on the main dispatch queue, the main actor's executor. The
  /// thread is no answer: on Linux, once the main thread hands the queue
  /// to `dispatchMain()`, other threads drain it, and the runtime's own
  /// check (`MainActor.assumeIsolated`) stops the process when it fails.
  private static let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether the caller runs on the main queue, and so on the main actor:
  /// from `@MainActor` code, or a queue that targets the main one.
  static var isCurrent: Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }

  /// Runs `factory` if the caller is on the main actor; otherwise throws
  /// ``MainActorIsolationRequired`` without running it.
  static func call<Service>(
    _ factory: @MainActor (Resolver) throws -> Service, with resolver: Resolver
  ) throws -> Service {
    guard isCurrent else { throw MainActorIsolationRequired() }
    // What `MainActor.assumeIsolated` does once its check passes, without
    // its demand that the result be `Sendable`: the caller is on the main
    // actor, so a non-`Sendable` instance stays there. A function's global
    // actor is known statically and does not change how it is called.
    return try withoutActuallyEscaping(factory) { isolated in
      try unsafeBitCast(isolated, to: ((Resolver) throws -> Service).self)(resolver)
    }
  }
}

/// What the synchronous factory of a main-actor registration throws when
/// called off the main actor; resolution turns it into
/// ``ResolutionError/Kind/mainActorIsolated``.
struct MainActorIsolationRequired: Error {}
