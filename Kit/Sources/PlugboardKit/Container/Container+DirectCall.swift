import PlugboardABI

// What Kit does for the resolve inlined into clients.
//
// The inlined resolve asks Kit for the registration's ``FastSlot`` once
// (`find(_:name:)`), returns a kept `.container` instance itself, and
// otherwise makes the instance as the slot says. Everything around that
// (the lookup tables, the chain, the scopes, the handlers, the errors) is
// Kit's, laid out as any release likes.
//
// Most objects of a freshly built graph are `.transient` registrations
// without `initCompleted` handlers: making one is entering the chain,
// calling the factory and leaving the chain. `find` enters the chain
// itself when that is all there is to it, and says so (``FastFind/call``);
// the caller then calls the factory, specialized for the service type, and
// returns the instance as the factory made it, then calls
// `leaveDirectCall(_:)`. The general path instead passes a closure down to
// code that is not specialized and moves the instance through a
// temporary, a noticeable share of a one-object resolution.
//
// A `.graph` registration this resolution has already made an instance of
// is answered by `keptGraphInstance(of:)`: the caller copies the instance,
// specialized, without entering the chain (the request can close no cycle
// and go no deeper: no factory runs).
//
// Anything else (another scope, a handler, a cycle or the depth limit
// about to be reached, a stack nearly full, a thread's first resolution)
// takes the general path, which reports the same errors.

/// What ``Container/find(_:name:)`` answers the inlined resolve: the slot
/// of the registration serving the request, if any, and whether Kit
/// entered it into the thread's chain for a direct call of its factory.
/// Frozen (Kit/ABI.md): two words, returned in registers.
@frozen @usableFromInline
struct FastFind {
  @usableFromInline let slot: UnsafeMutablePointer<FastSlot>?
  /// The thread's resolution context, when the registration was entered:
  /// the caller calls its factory, then ``Container/leaveDirectCall(_:)``
  /// with this, however the factory ends.
  @usableFromInline let call: UnsafeMutableRawPointer?

  init(slot: UnsafeMutablePointer<FastSlot>?, call: UnsafeMutableRawPointer? = nil) {
    self.slot = slot
    self.call = call
  }
}

extension Container {
  /// The registration serving an unnamed, argument-free request for `id`,
  /// here or in a parent, entered for a direct call when it is a plain
  /// `.transient` one.
  @usableFromInline
  func find(_ id: ObjectIdentifier) -> FastFind {
    if let slot = fastKeeper.table.slot(for: id) {
      // One of this container's own, with a kept instance the inlined
      // resolve could read without this call next time.
      if slot.pointee.shared.load(ordering: .relaxed) != nil, KeptCache.isFree(for: id, in: self) {
        rememberKept(id)
      }
      return FastFind(slot: slot, call: enterDirectCall(slot, hasArguments: false))
    }
    guard let slot = slotSlowly(id, name: nil) else { return FastFind(slot: nil) }
    return FastFind(slot: slot, call: enterDirectCall(slot, hasArguments: false))
  }

  /// Puts this container's kept instance of `id` in ``KeptCache``. Looked
  /// up again after the generation is read: an answer read before a change
  /// is then refused or emptied by it (see ``forgetKept(_:)``).
  @inline(never)
  private func rememberKept(_ id: ObjectIdentifier) {
    let generation = keptGeneration.load(ordering: .sequentiallyConsistent)
    guard let slot = fastKeeper.table.slot(for: id),
      let instance = slot.pointee.shared.load(ordering: .acquiring)
    else { return }
    KeptCache.keep(instance, of: id, in: self, generation: generation)
  }

  /// ``find(_:)`` for a request under `name`.
  @usableFromInline
  func find(_ id: ObjectIdentifier, name: String) -> FastFind {
    guard let slot = slotSlowly(id, name: name) else { return FastFind(slot: nil) }
    return FastFind(slot: slot, call: enterDirectCall(slot, hasArguments: false))
  }

  /// The registration of the type under `name` whose argument types have
  /// `signature`, here or in a parent, entered for a direct call when it
  /// is a plain `.transient` one. The caller confirms the types, and
  /// leaves the call when they differ (a collision of signatures).
  @usableFromInline
  func find(_ id: ObjectIdentifier, name: String?, signature: UInt) -> FastFind {
    // The table holds unnamed registrations only; a key that collided
    // may hold another type's, which this check turns away (one of this
    // type with other argument types, the caller's check does).
    if name == nil, let slot = argumentKeeper.table.slot(forKey: Self.argumentKey(id, signature: signature)),
      Unmanaged<RegistrationRecord>.fromOpaque(slot.pointee.record)._withUnsafeGuaranteedRef({
        $0.key.service.id == id
      })
    {
      return FastFind(slot: slot, call: enterDirectCall(slot, hasArguments: true))
    }
    guard let found = lookup(id, name: name, signature: signature) else { return FastFind(slot: nil) }
    let (slot, isOwn) = found._withUnsafeGuaranteedRef { ($0.fast, $0.owner === self) }
    // A parent's registration is its table's to hold: remembering it
    // here would take this container's lock on every such request.
    if name == nil && isOwn { rememberArgumentRecord(id, signature: signature) }
    return FastFind(slot: slot, call: enterDirectCall(slot, hasArguments: true))
  }

  /// The key of the unnamed registrations of `id` whose argument types
  /// have `signature` in ``argumentKeeper``'s table: a mix of the two,
  /// never 0. A collision finds a registration of another type, which
  /// ``find(_:name:signature:)`` checks for, and the caller confirms the
  /// argument types.
  static func argumentKey(_ id: ObjectIdentifier, signature: UInt) -> UInt {
    (Registry.bits(of: id) &* 0x9E37_79B9_7F4A_7C15 ^ signature) | 1
  }

  /// Puts the registration the published registry has for `id` with
  /// `signature` in ``argumentKeeper``'s table, if nothing changed since
  /// it was published: under the lock, so that a registration made
  /// meanwhile, which clears the key, is never undone by a late fill.
  @inline(never)
  private func rememberArgumentRecord(_ id: ObjectIdentifier, signature: UInt) {
    state.withLock { state in
      guard state.pending.isEmpty, !state.rebuildAll, let current = state.current,
        hot.pointee.published.load(ordering: .relaxed)
          == UnsafeRawPointer(Unmanaged.passUnretained(current).toOpaque()),
        let record = current.argumentRecord(for: id, name: nil, signature: signature)
      else { return }
      argumentKeeper.set(
        record._withUnsafeGuaranteedRef { $0.fast }, forKey: Self.argumentKey(id, signature: signature))
    }
  }

  /// Enters the registration of `slot` into the calling thread's chain
  /// when it is `.transient` and its factory can be called directly;
  /// `nil` when not, and then nothing was entered. For a slot found
  /// otherwise than by `find`: a contribution's, a decorator's. (Within
  /// Kit, inlined into `find`.)
  @usableFromInline @inline(__always)
  func enterDirectCall(_ slot: UnsafeMutablePointer<FastSlot>, hasArguments: Bool)
    -> UnsafeMutableRawPointer?
  {
    guard slot.pointee.scope.load(ordering: .relaxed) == RawScope.transient,
      let pointer = plugboard_current_context()
    else { return nil }
    // Anything the push declines (a cycle, the depth limit, a deep chain)
    // is for the general path, which checks again as it enters.
    let entered = Unmanaged<RegistrationRecord>.fromOpaque(slot.pointee.record)._withUnsafeGuaranteedRef {
      record in
      !record.hasHandlers
        && Unmanaged<ResolutionContext>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
          $0.pushIfShallow(record, hasArguments: hasArguments, limit: hot.pointee.maximumDepth)
        }
    }
    return entered ? pointer : nil
  }

  /// Leaves the link ``find(_:name:)`` entered, once the factory has
  /// returned or thrown.
  @usableFromInline
  func leaveDirectCall(_ context: UnsafeMutableRawPointer) {
    Unmanaged<ResolutionContext>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.popShallow() }
  }

  /// What an error thrown by a directly called factory becomes, while its
  /// link is still in the chain: as on the general path, a
  /// ``ResolutionError`` from further down passes through and anything
  /// else becomes `factoryFailed` at this link.
  @usableFromInline
  func failure(
    _ error: any Error, at slot: UnsafeMutablePointer<FastSlot>, inDirectCall context: UnsafeMutableRawPointer
  ) -> any Error {
    let record = Unmanaged<RegistrationRecord>.fromOpaque(slot.pointee.record).takeUnretainedValue()
    return Unmanaged<ResolutionContext>.fromOpaque(context)._withUnsafeGuaranteedRef {
      failure(error, at: record, in: $0)
    }
  }

  /// The instance this resolution already made of the registration of
  /// `slot`, a `.graph` one without arguments, for the caller to copy at
  /// once (the address is valid only until the resolution goes on); `nil`
  /// when there is none yet. (A registration with arguments keeps one
  /// instance per level of a recursive construction, which only the
  /// general path tells apart.)
  @usableFromInline
  func keptGraphInstance(of slot: UnsafeMutablePointer<FastSlot>) -> UnsafeMutableRawPointer? {
    guard let pointer = plugboard_current_context() else { return nil }
    return Unmanaged<RegistrationRecord>.fromOpaque(slot.pointee.record)._withUnsafeGuaranteedRef { record in
      Unmanaged<ResolutionContext>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
        $0.graphInstance(of: record)
      }
    }
  }

  /// Makes (or finds, as its scope says) an instance of the registration
  /// of `slot` into `out`, uninitialized memory of its service type, by
  /// the general path; `produce` calls the factory.
  @usableFromInline
  func makeInstance(
    of slot: UnsafeMutablePointer<FastSlot>, hasArguments: Bool, into out: UnsafeMutableRawPointer,
    produce: (Resolver, UnsafeMutableRawPointer) throws -> Void
  ) throws {
    let record = Unmanaged<RegistrationRecord>.fromOpaque(slot.pointee.record).takeUnretainedValue()
    try makeInstance(of: record, hasArguments: hasArguments, into: out, produce: produce)
  }
}
