import PlugboardABI

/// A transient factory called by the resolving code itself.
///
/// Most objects of a freshly built graph are `.transient` registrations
/// without `initCompleted` handlers: making one is entering the chain,
/// calling the factory and leaving the chain. The inlinable `resolve`
/// asks ``Container/enterDirectCall(of:hasArguments:)`` whether that is
/// all there is to it and, if so, calls the factory itself, specialized
/// for the service type, and returns the instance as the factory made
/// it. The general path instead passes a closure down to code that is not
/// specialized and moves the instance through a temporary, a noticeable
/// share of a one-object resolution.
///
/// A `.graph` registration this resolution has already made an instance
/// of is answered the same way: ``Container/keptGraphInstance(of:)``
/// finds the instance, and the caller copies it, specialized, without
/// entering the chain (the request can close no cycle and go no deeper:
/// no factory runs).
///
/// Anything else (another scope, a handler, a cycle or the depth limit
/// about to be reached, a stack nearly full, a thread's first
/// resolution) gets `nil` and takes the general path, which reports the
/// same errors.
@frozen @usableFromInline
struct DirectCall {
  /// The calling thread's ``ResolutionContext``, unretained: it lives as
  /// long as the thread.
  @usableFromInline let context: UnsafeMutableRawPointer

  @inlinable
  init(context: UnsafeMutableRawPointer) {
    self.context = context
  }
}

extension Container {
  /// Enters `record`, a `.transient` registration, into the calling
  /// thread's chain when its factory can be called directly (see
  /// ``DirectCall``); `nil` when it cannot, and then nothing was entered.
  /// The caller calls the factory, then ``leave(_:)``.
  ///
  /// Inlined with `leave`, into the resolve specialized for the service
  /// type: as a pair of calls into the library (through its PLT), they
  /// would cost every object of a graph two calls.
  @inlinable @inline(__always)
  func enterDirectCall(of record: RegistrationRecord, hasArguments: Bool) -> DirectCall? {
    enterDirectCall(of: record, hasArguments: hasArguments, limit: hot.pointee.maximumDepth)
  }

  /// ``enterDirectCall(of:hasArguments:)`` with the container's
  /// ``maximumDepth`` already read.
  @inlinable @inline(__always)
  func enterDirectCall(of record: RegistrationRecord, hasArguments: Bool, limit: Int) -> DirectCall? {
    // Anything the push declines (a cycle, the depth limit, a deep chain)
    // is for the general path, which checks again as it enters.
    guard !record.hasHandlers,
      let pointer = plugboard_current_context(),
      Unmanaged<ResolutionContext>.fromOpaque(pointer)._withUnsafeGuaranteedRef({
        $0.pushIfShallow(record, hasArguments: hasArguments, limit: limit)
      })
    else { return nil }
    return DirectCall(context: pointer)
  }

  /// The instance this resolution already made of `record`, a `.graph`
  /// registration without arguments, for the caller to copy at once (the
  /// address is valid only until the resolution goes on); `nil` when
  /// there is none yet. (A registration with arguments keeps one
  /// instance per level of a recursive construction, which only the
  /// general path tells apart.)
  @usableFromInline
  func keptGraphInstance(of record: RegistrationRecord) -> UnsafeMutableRawPointer? {
    guard let pointer = plugboard_current_context() else { return nil }
    return Unmanaged<ResolutionContext>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
      $0.graphInstance(of: record)
    }
  }

  /// Leaves the link ``enterDirectCall(of:hasArguments:)`` entered, once
  /// the factory has returned or thrown.
  @inlinable @inline(__always)
  func leave(_ call: DirectCall) {
    Unmanaged<ResolutionContext>.fromOpaque(call.context)._withUnsafeGuaranteedRef { $0.popShallow() }
  }

  /// What an error thrown by a directly called factory becomes, while its
  /// link is still in the chain: as on the general path, a
  /// ``ResolutionError`` from further down passes through and anything
  /// else becomes `factoryFailed` at this link.
  @usableFromInline
  func failure(_ error: any Error, at record: RegistrationRecord, in call: DirectCall) -> any Error {
    Unmanaged<ResolutionContext>.fromOpaque(call.context)._withUnsafeGuaranteedRef {
      failure(error, at: record, in: $0)
    }
  }
}
