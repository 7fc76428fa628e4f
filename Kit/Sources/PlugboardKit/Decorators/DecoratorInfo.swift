/// One decorator, as listings and checks see it: what
/// ``Container/decorator(of:)`` answers for a decorator's registration.
public struct DecoratorInfo: Sendable, Hashable {
  /// The registration it decorates: its type and name, without arguments.
  public let target: ServiceKey
  /// The name given to `decorate`; `nil` when it was given none.
  public let name: String?
  /// The declared order (lower first: closer to the original).
  public let order: Int
  /// Its place among every decorator of the process: registration order,
  /// which breaks ties of `order`.
  public let sequence: Int
  /// The key its own registration is stored under.
  public let key: ServiceKey
  /// Whether its factory is async.
  public let isAsync: Bool

  init(_ slot: DecoratorIndex.Slot, of type: TypeIdentity) {
    self.target = ServiceKey(service: type, name: slot.targetName)
    self.name = slot.name
    self.order = slot.order
    self.sequence = slot.sequence
    self.key = slot.key(of: type)
    self.isAsync = slot.applier.isAsync
  }

  /// How listings name it: `decorator "timing"`, or `decorator #3` when it
  /// has no name.
  public var label: String {
    ServiceKey.label("decorator", name: name, sequence: sequence)
  }
}
