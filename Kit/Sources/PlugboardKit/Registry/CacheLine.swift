/// Memory the resolution path reads on every lookup is kept on cache lines
/// of its own. Otherwise a user object allocated next to it (a singleton,
/// typically, made right after the registry is published) shares a line
/// with it, and every retain of that object by one core evicts the line
/// the other core is reading, and two threads resolving one singleton
/// run slower together than one alone.
enum CacheLine {
  static let size = 64

  /// `count` uninitialized elements on whole cache lines of their own.
  static func allocate<Element: ~Copyable>(_: Element.Type, count: Int) -> UnsafeMutablePointer<
    Element
  > {
    let bytes = max(count * MemoryLayout<Element>.stride, 1)
    let padded = (bytes + size - 1) / size * size
    return UnsafeMutableRawPointer.allocate(
      byteCount: padded, alignment: max(size, MemoryLayout<Element>.alignment)
    ).bindMemory(to: Element.self, capacity: count)
  }
}
