extension CustomScope {
  /// A scope whose registrations keep their instances in an
  /// ``InstanceStorage`` that `storageFactory` makes, one per registration,
  /// as Swinject's `ObjectScope(storageFactory:description:parent:)`:
  ///
  /// ```swift
  /// extension CustomScope {
  ///   static let session = CustomScope(storageFactory: PermanentStorage.init, description: "session")
  ///   static let screen = CustomScope(storageFactory: WeakStorage.init, parent: .graph)
  /// }
  /// container.register(Cart.self) { _ in Cart() }.inObjectScope(.session)
  /// container.resetObjectScope(.session)  // sets each storage's `instance` to nil
  /// ```
  ///
  /// With a `parent`, each registration's storage is composed with the
  /// parent's (``CompositeStorage``), as Swinject's: `.weak` is
  /// `WeakStorage` with `parent: .graph`. A built-in parent lends its
  /// storage: `.transient` ``TransientStorage``, `.graph` ``GraphStorage``,
  /// `.container` and `.scoped` ``PermanentStorage``, `.weak` ``WeakStorage``
  /// with ``GraphStorage``.
  ///
  /// Swift will not let `ObjectScope(storageFactory:)` make a scope: the
  /// built-in ``ObjectScope`` is an enum whose raw value is the one load
  /// the resolution fast path branches on. A Swinject custom scope
  /// therefore ports by writing `CustomScope` where it wrote
  /// `ObjectScope` in the declaration; `.inObjectScope(.session)` and
  /// `resetObjectScope(.session)` stay as they were. These scopes take a
  /// path of their own, so the built-in scopes' resolution is unchanged.
  ///
  /// A storage is used under its registration's lock, so it needs none of
  /// its own. Making an instance is exactly-once per storage as for
  /// `.container`; an async registration in the scope keeps its instance
  /// as a strong ``CustomScope`` does.
  public convenience init(
    storageFactory: @escaping () -> any InstanceStorage, description: String = "",
    parent: ObjectScope? = nil
  ) {
    let inherited = parent.map(\.storageFactory)
    self.init(description) {
      guard let inherited else { return storageFactory() }
      return CompositeStorage([storageFactory(), inherited()])
    }
  }

  /// ``init(storageFactory:description:parent:)-(_,_,ObjectScope?)`` under
  /// a custom `parent`, whose storage is composed after this one's.
  public convenience init(
    storageFactory: @escaping () -> any InstanceStorage, description: String = "",
    parent: CustomScope
  ) {
    let inherited = parent.makeStorage
    self.init(description) { CompositeStorage([storageFactory(), inherited()]) }
  }

  /// A new storage of this scope: the factory's, or for the `storage:`
  /// scopes the storage that keeps instances as they do.
  var makeStorage: () -> any InstanceStorage {
    if let storageFactory { return storageFactory.make }
    return storage == .weak ? WeakStorage.init : PermanentStorage.init
  }
}

extension ObjectScope {
  /// The storage the built-in scope lends a storage-factory scope it is
  /// the parent of.
  var storageFactory: () -> any InstanceStorage {
    switch self {
    case .transient: TransientStorage.init
    case .graph: GraphStorage.init
    case .container, .scoped: PermanentStorage.init
    case .weak: { CompositeStorage([WeakStorage(), GraphStorage()]) }
    }
  }
}

/// A scope's storage factory, carried by the `Sendable` ``CustomScope``.
/// Unchecked: the factories are `PermanentStorage.init` and the like,
/// and the container calls one only under a registration's lock.
struct StorageFactory: @unchecked Sendable {
  let make: () -> any InstanceStorage
}

extension ObjectScope {
  /// Swinject's custom scope declaration, which cannot compile here: the
  /// compiler's message names the spelling that does.
  ///
  /// ``ObjectScope`` is the enum of the built-in scopes, whose raw value
  /// is the one load the inlined resolve branches on, so a value of it
  /// cannot carry a storage factory. Declare the scope as a
  /// ``CustomScope`` instead, with the same arguments:
  ///
  /// ```swift
  /// extension CustomScope {
  ///   static let session = CustomScope(storageFactory: PermanentStorage.init, description: "session")
  /// }
  /// ```
  ///
  /// `.inObjectScope(.session)` and `resetObjectScope(.session)` take it
  /// as they are.
  @available(
    *, unavailable,
    message:
      "ObjectScope holds only the built-in scopes: declare 'CustomScope(storageFactory:description:parent:)' instead; .inObjectScope and resetObjectScope take it unchanged"
  )
  public init(
    storageFactory: @escaping () -> any InstanceStorage, description: String = "",
    parent: ObjectScope? = nil
  ) {
    self = .container
  }
}
