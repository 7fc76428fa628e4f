/// What the container needs to do with instances of one service type,
/// captured where the type is known (at `register`) so that resolution can
/// work on raw memory without generic metadata lookups or dynamic casts.
struct InstanceOperations: Sendable {
  /// Makes an instance with the registration's factory (for registrations
  /// without runtime arguments) and initializes `out` with it.
  let produce: @Sendable (any Resolver, UnsafeMutableRawPointer) throws -> Void
  /// Initializes `destination` with a copy of the instance at `source`.
  let copy: @Sendable (_ source: UnsafeMutableRawPointer, _ destination: UnsafeMutableRawPointer) -> Void
  /// Deinitializes the instance at the address.
  let destroy: @Sendable (UnsafeMutableRawPointer) -> Void
  /// The instance as an object, when it is a class instance (for `.weak`).
  let object: @Sendable (UnsafeMutableRawPointer) -> AnyObject?
  /// Initializes `out` from an object, if it is an instance of the type.
  let fromObject: @Sendable (AnyObject, UnsafeMutableRawPointer) -> Bool
  let size: Int
  let alignment: Int

  init<Service>(
    _: Service.Type, produce: @escaping @Sendable (any Resolver, UnsafeMutableRawPointer) throws -> Void
  ) {
    self.produce = produce
    self.copy = { source, destination in
      destination.assumingMemoryBound(to: Service.self)
        .initialize(to: source.assumingMemoryBound(to: Service.self).pointee)
    }
    self.destroy = { $0.assumingMemoryBound(to: Service.self).deinitialize(count: 1) }
    self.object = { pointer in
      let instance = pointer.assumingMemoryBound(to: Service.self).pointee
      // Only class instances can be held weakly; bridging a value would
      // make a box nobody else holds (or a cached NSNumber).
      guard type(of: instance as Any) is AnyObject.Type else { return nil }
      return instance as AnyObject
    }
    self.fromObject = { object, out in
      guard let instance = object as? Service else { return false }
      out.assumingMemoryBound(to: Service.self).initialize(to: instance)
      return true
    }
    self.size = MemoryLayout<Service>.size
    self.alignment = MemoryLayout<Service>.alignment
  }
}
