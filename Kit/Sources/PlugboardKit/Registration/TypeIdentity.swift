/// A Swift type as the container sees it: its runtime identity, which decides
/// matches, and its fully qualified name, which is what people read.
///
/// Two types can share a name and differ in identity when a module is loaded
/// twice (a plugin that linked its own copy of a shared module). Diagnostics
/// look for exactly that case, so both halves are kept.
@frozen public struct TypeIdentity: Hashable, @unchecked Sendable, CustomStringConvertible {
  // Metatypes are immutable process-wide values; sharing them is safe.
  /// The type itself.
  public let type: any Any.Type

  @inlinable
  public init(_ type: any Any.Type) {
    self.type = type
  }

  /// The runtime identity of the metatype.
  @inlinable public var id: ObjectIdentifier { ObjectIdentifier(type) }

  /// The fully qualified name, such as `Contracts.AuthRepository`. Computed on
  /// demand: registering must not pay for reflection.
  ///
  /// `_typeName(qualified: true)` is what `String(reflecting:)` prints for
  /// a metatype, without first asking whether the metatype conforms to
  /// `CustomDebugStringConvertible` and its siblings: each of those
  /// conformance lookups scans every loaded library the first time a type
  /// is asked, which would dominate `plugboard list` of many plugins.
  public var name: String { _typeName(type, qualified: true) }

  /// The name without its module prefix: `AuthRepository`. Generic arguments
  /// keep their own qualification.
  public var shortName: String { Self.shortName(of: name) }

  /// The short name of a type whose fully qualified name is `name`, for a
  /// caller that has the name already: reflecting it again costs more
  /// than cutting it.
  static func shortName(of name: String) -> String {
    if let short = asciiShortName(of: name) { return short }
    let head = name.prefix { $0 != "<" }
    let shortHead = head.split(separator: ".").last.map(String.init) ?? String(head)
    return shortHead + name.dropFirst(head.count)
  }

  /// ``shortName(of:)`` cut from the bytes of an ASCII name, in which
  /// every byte is a character; `nil` for any other name. Stepping
  /// through the name character by character (grapheme breaking), to
  /// find `<` and split at each `.`, costs far more than reading its
  /// bytes, and a miss's report judges every registered type's name.
  private static func asciiShortName(of name: String) -> String? {
    guard !TypeBucket.isNotASCII(name) else { return nil }
    var name = name
    return name.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return "" }
      let dot = UInt8(ascii: ".")
      var head = 0
      while head < bytes.count && base[head] != UInt8(ascii: "<") { head += 1 }
      // The last run of the head without a dot, as `split(separator:)`
      // would find it; a head of dots alone is kept whole.
      var end = head
      while end > 0 && base[end - 1] == dot { end -= 1 }
      guard end > 0 else { return String(decoding: bytes, as: UTF8.self) }
      var start = end
      while start > 0 && base[start - 1] != dot { start -= 1 }
      return String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
        + String(decoding: UnsafeBufferPointer(start: base + head, count: bytes.count - head), as: UTF8.self)
    }
  }

  /// The module part of the name, if the name has one.
  public var moduleName: String? {
    let head = name.prefix { $0 != "<" }
    guard let dot = head.firstIndex(of: ".") else { return nil }
    return String(head[..<dot])
  }

  /// The metatype as Swift 6 code writes it, for a fix to copy:
  /// `(any AuthRepository).self` for a protocol (plain `AuthRepository.self`
  /// is a warning under `ExistentialAny`, which `plugboard new` packages
  /// enable), `Session.self` for any other type; without the module.
  public var metatypeSpelling: String {
    (isExistential ? "(any \(shortName))" : shortName) + ".self"
  }

  /// Whether the type is a protocol's existential (`any P`, or a
  /// composition of protocols): its metadata's kind, from the Swift ABI's
  /// MetadataKind, and its number of protocols.
  private var isExistential: Bool {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    return metadata.load(as: UInt.self) == 0x303 && metadata.load(fromByteOffset: 12, as: UInt32.self) > 0
  }

  @inlinable
  public static func == (lhs: TypeIdentity, rhs: TypeIdentity) -> Bool { lhs.id == rhs.id }
  @inlinable
  public func hash(into hasher: inout Hasher) { hasher.combine(id) }
  public var description: String { name }
}
