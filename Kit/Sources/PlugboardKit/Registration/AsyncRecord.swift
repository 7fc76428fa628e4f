/// A registration whose factory is `async`: what the async resolution
/// (``Container/resolveAsync(_:name:)``) needs of one besides its scope,
/// shared by ``AsyncPlainRecord`` and an async ``ArgumentRecord``.
///
/// Its `.container` instance is kept in `madeInstance`, not in the
/// lock-free `shared` slot a synchronous resolve reads first, so that a
/// synchronous request fails the same way before and after the instance
/// exists rather than depending on who came first.
protocol AsyncRecord<Service>: RegistrationRecord {
  associatedtype Service
  /// The `.container` instance, once made. Read and written only under
  /// the record's striped lock, through the methods below.
  var madeInstance: Service? { get set }
}

extension AsyncRecord {
  /// The `.container` instance, if it has been made.
  var storedInstance: Service? {
    StripedLock.withLock(for: self) { madeInstance }
  }

  /// Stores `instance` as the `.container` instance unless one is stored
  /// already, and returns the one stored.
  func store(_ instance: Service) -> Service {
    StripedLock.withLock(for: self) {
      if let made = madeInstance { return made }
      madeInstance = instance
      stampCreation()
      return instance
    }
  }

  /// Forgets the instance the async factory made and returns it for its dispose hook; the
  /// caller releases it outside the lock (its deinit may resolve again).
  func forgetMadeInstance() -> Any? {
    StripedLock.withLock(for: self) { () -> Service? in
      defer { madeInstance = nil }
      return madeInstance
    }
  }
}

/// What the synchronous factory of an async record throws; resolution
/// turns it into ``ResolutionError/Kind/asyncRegistration``.
struct AsyncRegistrationRequired: Error {}
