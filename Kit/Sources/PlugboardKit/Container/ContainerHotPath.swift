import Synchronization

/// The part of every ``Container`` that the resolve inlined into clients
/// reads; not for use outside PlugboardKit.
///
/// PlugboardKit is built with library evolution, so a container's own
/// stored properties may change in any release, and a client reaches them
/// only through calls. The inlined resolve instead reads ``hot`` from this
/// superclass, whose layout is fixed for the whole major version
/// (Kit/ABI.md): one load at an offset known when the client was compiled.
/// A call per resolve would be a noticeable share of the singleton's
/// path. It has to be public to be a public class's superclass;
/// the underscore says it is no API.
@_fixed_layout
public class _ContainerHotFields: @unchecked Sendable {
  @usableFromInline let hot: UnsafeMutablePointer<ContainerHotPath>

  init(maximumDepth: Int) {
    hot = ContainerHotPath.allocate(maximumDepth: maximumDepth)
  }

  deinit {
    hot.deinitialize(count: 1)
    UnsafeMutableRawPointer(hot).deallocate()
  }
}

/// The fields of a ``Container`` that the inlined resolve reads, behind
/// ``_ContainerHotFields/hot``: frozen (Kit/ABI.md), and on cache lines of
/// their own, so that no user object allocated beside them shares the line
/// every lookup reads.
@frozen @usableFromInline
struct ContainerHotPath: ~Copyable {
  /// The current ``Registry``, unretained, or nil while registrations wait
  /// to be published into it.
  @usableFromInline let published: Atomic<UnsafeRawPointer?>
  /// The container's ``Container/maximumDepth``.
  @usableFromInline let maximumDepth: Int

  init(maximumDepth: Int) {
    published = Atomic(nil)
    self.maximumDepth = maximumDepth
  }

  static func allocate(maximumDepth: Int) -> UnsafeMutablePointer<ContainerHotPath> {
    let pointer = CacheLine.allocate(ContainerHotPath.self, count: 1)
    pointer.initialize(to: ContainerHotPath(maximumDepth: maximumDepth))
    return pointer
  }
}
