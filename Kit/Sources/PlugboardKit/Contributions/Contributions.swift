/// Every contribution to the extension point `Service`, as a dependency:
/// an `autoregister` initializer parameter, or
/// `try r.resolve(Contributions<Command>.self)` in a factory.
///
/// ```swift
/// struct Menu {
///   let commands: Contributions<Command>
/// }
/// container.autoregister(Menu.self, initializer: Menu.init)
///
/// let menu = try container.resolve(Menu.self)
/// for command in menu.commands { print(command.title) }
/// menu.commands.named["help"]
/// ```
///
/// The instances are those ``Container/resolveAll(_:)`` returns, resolved
/// when the `Contributions` is, in the same order; it may be empty. A
/// registration of `Contributions<Service>` itself, if any, wins. Requested
/// with a name, or with runtime arguments, it is `notRegistered`:
/// contributions are chosen by their contract alone.
public struct Contributions<Service>: RandomAccessCollection {
  /// The instances, in contribution order.
  public let elements: [Service]
  /// Each instance's contribution name, `nil` for an unnamed one.
  public let names: [String?]

  /// Contributions of your own making, for tests: `names` defaults to none.
  public init(_ elements: [Service], names: [String?]? = nil) {
    self.elements = elements
    self.names = names ?? Array(repeating: nil, count: elements.count)
  }

  public var startIndex: Int { elements.startIndex }
  public var endIndex: Int { elements.endIndex }
  public subscript(position: Int) -> Service { elements[position] }

  /// The named instances by name, as ``Container/resolveAllNamed(_:)``:
  /// unnamed ones left out, the later of two with one name kept.
  public var named: [String: Service] {
    var named: [String: Service] = [:]
    for (name, element) in zip(names, elements) {
      if let name { named[name] = element }
    }
    return named
  }
}

extension Contributions: Sendable where Service: Sendable {}

extension Contributions: WrapperRequest {
  static func resolveWrapper(in container: Container, name: String?) throws -> Self {
    guard name == nil else { throw container.missing(Self.self, name: name) }
    let takingPart = container.contributionsTakingPart(for: ObjectIdentifier(Service.self))
    var instances: [Service] = []
    var names: [String?] = []
    instances.reserveCapacity(takingPart.slots.count)
    names.reserveCapacity(takingPart.slots.count)
    try container.forEachContribution(Service.self, in: takingPart) { name, instance in
      instances.append(instance)
      names.append(name)
    }
    return Contributions(instances, names: names)
  }

  static func resolveWrapper<First, each Rest>(
    in container: Container, name: String?, arguments first: First, _ rest: repeat each Rest
  ) throws -> Self {
    throw container.missing(Self.self, name: name)
  }

  static func isServed(in container: Container, name: String?) -> Bool {
    name == nil
  }

  /// An extension point may be empty, so the edge is optional: checks see
  /// which contract is needed but never report it missing. Its key's role
  /// is ``ServiceKey/Role/extensionPoint``, so the edge leads to the
  /// contributions, not to a plain registration of the contract.
  static func declaredDependency(name: String?) -> DeclaredDependency {
    .optional(ServiceKey(Service.self, role: .extensionPoint))
  }
}
