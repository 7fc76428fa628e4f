extension Container {
  /// Serves requests for `type` (under `name`) with the instance `entry`
  /// makes, as Swinject's `forward`: one registration answering for several
  /// protocols, sharing its instance according to its scope.
  ///
  /// The forwarded type is a registration of its own (listed with
  /// ``RegistrationInfo/forwardsTo``) whose factory resolves the entry's
  /// key, so `plugboard check` follows the edge. It is in the entry's
  /// scope, set before or after: a `.container` entry's forwarded type
  /// keeps the one instance (decorated once, when a decorator of the
  /// forwarded type applies) until the scope is reset, and, as any
  /// singleton, resolves the entry in the container that registers it, not
  /// in a child that overrides the entry. An entry kept per arguments
  /// (``registerPerArguments(_:name:file:line:factory:)``) is forwarded
  /// per arguments too. An entry that takes
  /// runtime arguments is forwarded with the same ones:
  ///
  /// ```swift
  /// container.register(Dog.self) { _, name in Dog(name: name) }
  ///   .implements((any Animal).self)
  /// let animal = try container.resolve((any Animal).self, argument: "Hachi")
  /// ```
  /// - Throws (when resolving): ``ResolutionError`` as for the entry, and
  ///   ``ForwardingError`` (as `factoryFailed`) when the instance is not a
  ///   `type`.
  @discardableResult
  public func forward<Forwarded, Service>(
    _ type: Forwarded.Type, name: String? = nil, to entry: ServiceEntry<Service>,
    file: String = #fileID, line: Int = #line
  ) -> ServiceEntry<Forwarded> {
    let target = entry.key
    let forwarded =
      entry.record.forwarding(type, name: name, in: self, file: file, line: line)
      ?? register(type, name: name, file: file, line: line) { resolver in
        try ForwardingError.cast(resolver.resolve(Service.self, name: target.name), to: target)
      }
    forwarded.record.withMetadata { metadata in
      metadata.dependencies = [target]
      metadata.forwardsTo = target
    }
    // The forwarded type keeps its instance where the entry keeps its own,
    // now and whenever the entry's scope is set later: what a decorator of
    // the forwarded type makes from the shared instance is then made once
    // per lifetime of that scope, kept and disposed with it, instead of
    // on every request.
    entry.record.withMetadata { $0.forwarders.append(forwarded.record) }
    forwarded.record.adoptScope(of: entry.record)
    // A fallback's forwarded types stand in for it: each is a fallback too,
    // or it would beat another plugin's registration of the type.
    if entry.record.isFallback { forwarded.asFallback() }
    return forwarded
  }

  /// The registrations here that forward a type to `key`
  /// (``ServiceEntry/implements(_:name:file:line:)``).
  func forwarders(of key: ServiceKey) -> [RegistrationRecord] {
    let records = state.withLock { $0.log.records(upTo: $0.log.count) }
    return records.filter { $0.readingMetadata { $0.forwardsTo } == key }
  }
}

extension RegistrationRecord {
  /// Gives the registrations of types forwarded to this one its scope.
  func passScopeToForwarders() {
    for forwarder in readingMetadata({ $0.forwarders }) { forwarder.adoptScope(of: self) }
  }

  /// Takes the scope of `target`, the registration this one forwards to,
  /// and passes it on to the types forwarded to this one.
  func adoptScope(of target: RegistrationRecord) {
    if let custom = target.customScope {
      customScope = custom
    } else {
      scope = target.scope
    }
    passScopeToForwarders()
  }
}

extension ServiceEntry {
  /// Serves each of `types` (under `name`) with this registration's
  /// instance, as Swinject's `implements`:
  /// `register(Engine.self) { … }.implements(Starter.self, Stopper.self)`.
  /// See ``Container/forward(_:name:to:file:line:)``.
  @discardableResult
  public func implements<each Forwarded>(
    _ types: repeat (each Forwarded).Type, name: String? = nil, file: String = #fileID,
    line: Int = #line
  ) -> ServiceEntry<Service> {
    repeat _ = container.forward(each types, name: name, to: self, file: file, line: line)
    return self
  }
}

/// A forwarded type's registration resolved an instance that is not of
/// that type: `.implements(P.self)` on a registration whose instances do
/// not conform to `P`.
public struct ForwardingError: Error, CustomStringConvertible {
  public let forwarded: TypeIdentity
  public let target: ServiceKey

  /// `instance` as a `Forwarded`, for the forwarding registration of
  /// `target`.
  static func cast<Forwarded>(_ instance: Any, to target: ServiceKey) throws -> Forwarded {
    guard let cast = instance as? Forwarded else {
      throw ForwardingError(forwarded: TypeIdentity(Forwarded.self), target: target)
    }
    return cast
  }

  public var description: String {
    "\(target.shortDescription) is forwarded as \(forwarded.shortName), but its instance is not a "
      + "\(forwarded.shortName): make the type conform, or remove the forwarding"
  }
}
