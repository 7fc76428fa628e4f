extension ServiceKey {
  /// What a key stores: a service, which requests find by type, name and
  /// arguments; or one of the registrations a container keeps beside its
  /// services, which no request names (a decorator, a contribution), or the
  /// whole set a `Contributions<Service>` dependency declares.
  ///
  /// A key's ``ServiceKey/name`` is always the name its author wrote; the
  /// role says what kind of registration it is, so that a decorator named
  /// `"timing"` and a service named `"timing"` of the same type are two
  /// keys, and listings show each as what it is:
  ///
  /// ```swift
  /// for info in container.registrations {
  ///   switch info.key.role.kind {
  ///   case .service: print("serves", info.key)
  ///   case .decorator: print("wraps", info.key.service.name)
  ///   case .contribution: print("contributes to", info.key.service.name)
  ///   case .extensionPoint: break  // only declared, never registered
  ///   @unknown default: break
  ///   }
  /// }
  /// ```
  ///
  /// Frozen because it lies inside ``ServiceKey``, which registration
  /// records hold and inlined resolution code reads; its kinds are a code
  /// rather than a frozen enum so that a later release may add one.
  @frozen public struct Role: Hashable, Sendable {
    /// The kind, as ``Kind``'s position: 0 service, 1 decorator,
    /// 2 contribution, 3 extension point.
    @usableFromInline let code: Int
    /// A decorator's or contribution's place among every one made in the
    /// process (registration order, which breaks ties of their declared
    /// order); 0 for the other kinds.
    public let sequence: Int

    @usableFromInline init(code: Int, sequence: Int) {
      self.code = code
      self.sequence = sequence
    }

    /// A service: what `register` stores and `resolve` finds.
    public static let service = Role(code: 0, sequence: 0)
    /// Every contribution to a contract, as a `Contributions<Service>`
    /// dependency declares it: never registered, so checks tell an edge to
    /// an extension point (optional, possibly empty) from one to a service.
    public static let extensionPoint = Role(code: 3, sequence: 0)

    /// The decorator made `sequence`-th in the process.
    public static func decorator(_ sequence: Int) -> Role { Role(code: 1, sequence: sequence) }

    /// The contribution made `sequence`-th in the process.
    public static func contribution(_ sequence: Int) -> Role { Role(code: 2, sequence: sequence) }

    /// The kinds of registration a key can store.
    public enum Kind: Sendable, Hashable {
      case service
      case decorator
      case contribution
      case extensionPoint
    }

    /// Which kind of registration the key stores.
    public var kind: Kind {
      switch code {
      case 1: .decorator
      case 2: .contribution
      case 3: .extensionPoint
      default: .service
      }
    }
  }

  /// Whether this is the key a decorator is stored under (see
  /// `Container.decorate(_:target:name:order:file:line:decorator:)`).
  /// Nobody requests such a key; listings and checks show it as a
  /// decorator of its target.
  public var isDecorator: Bool { role.kind == .decorator }

  /// Whether this is the key a contribution is stored under (see
  /// ``Container/contribute(_:name:order:file:line:factory:)``). Nobody
  /// requests such a key; listings and checks show it as a contribution.
  public var isContribution: Bool { role.kind == .contribution }

  /// Whether this is the key a `Contributions<Service>` dependency declares:
  /// every contribution to `service`, which checks treat as an optional
  /// edge to the extension point, never as a missing registration.
  public var isExtensionPoint: Bool { role.kind == .extensionPoint }

  /// The name given to the decorator this key stores; `nil` for an
  /// unnamed decorator or another kind of key.
  public var decoratorName: String? { isDecorator ? name : nil }

  /// The name given to the contribution this key stores; `nil` for an
  /// unnamed contribution or another kind of key.
  public var contributionName: String? { isContribution ? name : nil }

  /// How the key's role and name read in a description: `named "Mock"`
  /// for a service, `decorator "timing"` or `decorator #3` (unnamed),
  /// `contribution "help"` or `contribution #12`, `(every contribution)`.
  var nameClause: String {
    switch role.kind {
    case .decorator: return " " + Self.label("decorator", name: name, sequence: role.sequence)
    case .contribution: return " " + Self.label("contribution", name: name, sequence: role.sequence)
    case .extensionPoint: return " (every contribution)"
    default: return name.map { " named \"\(Self.escaped($0))\"" } ?? ""
    }
  }

  /// `decorator "timing"`, or `decorator #3` for one without a name.
  static func label(_ kind: String, name: String?, sequence: Int) -> String {
    name.map { "\(kind) \"\(escaped($0))\"" } ?? "\(kind) #\(sequence)"
  }
}
