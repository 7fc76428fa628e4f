/// Something told of every registration a container takes, as Swinject's
/// `Behavior`: add one with ``Container/addBehavior(_:)`` or the
/// `behaviors:` parameter of ``Container/init(parent:defaultObjectScope:behaviors:maximumDepth:)``
/// and ``Assembler``, to log registrations, collect the services of a
/// protocol, or configure each entry the same way:
///
/// ```swift
/// struct EveryServiceASingleton: Behavior {
///   func container<Type, Service>(
///     _ container: Container, didRegisterType type: Type.Type,
///     toService entry: ServiceEntry<Service>, withName name: String?
///   ) {
///     entry.inObjectScope(.container)
///   }
/// }
/// ```
///
/// Called on the registering thread, during `register`, before the
/// caller's `.inObjectScope(…)` and other settings (as in Swinject), for
/// each registration: plain, with arguments, async, autoregistered, by
/// instance, and each type forwarded with `.implements` or `forward`
/// (which is a registration of its own here, so `entry` is the forwarding
/// registration's, not the target's as in Swinject). Contributions
/// (`contribute`) are not registrations of a key and are not announced.
public protocol Behavior {
  /// `container` took a registration of `type` under `name`; `entry`
  /// configures it further.
  func container<Type, Service>(
    _ container: Container, didRegisterType type: Type.Type,
    toService entry: ServiceEntry<Service>, withName name: String?)
}
