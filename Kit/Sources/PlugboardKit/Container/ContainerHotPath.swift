import Synchronization

/// The fields of a ``Container`` that Kit's own lookups read on every
/// request, on cache lines of their own, so that no user object allocated
/// beside them shares the line every lookup reads.
struct ContainerHotPath: ~Copyable {
  /// The current ``Registry``, unretained, or nil while registrations wait
  /// to be published into it.
  let published: Atomic<UnsafeRawPointer?>
  /// The container's ``Container/maximumDepth``.
  let maximumDepth: Int

  init(maximumDepth: Int) {
    published = Atomic(nil)
    self.maximumDepth = maximumDepth
  }

  static func allocate(maximumDepth: Int) -> UnsafeMutablePointer<ContainerHotPath> {
    let pointer = CacheLine.allocate(ContainerHotPath.self, count: 1)
    pointer.initialize(to: ContainerHotPath(maximumDepth: maximumDepth))
    return pointer
  }

  static func deallocate(_ pointer: UnsafeMutablePointer<ContainerHotPath>) {
    pointer.deinitialize(count: 1)
    UnsafeMutableRawPointer(pointer).deallocate()
  }
}
