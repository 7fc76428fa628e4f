/// A Swift type as the container sees it: its runtime identity, which decides
/// matches, and its fully qualified name, which is what people read.
///
/// Two types can share a name and differ in identity when a module is loaded
/// twice (a plugin that linked its own copy of a shared module). Diagnostics
/// look for exactly that case, so both halves are kept.
public struct TypeIdentity: Hashable, @unchecked Sendable, CustomStringConvertible {
  // Metatypes are immutable process-wide values; sharing them is safe.
  /// The type itself.
  public let type: any Any.Type

  public init(_ type: any Any.Type) {
    self.type = type
  }

  /// The runtime identity of the metatype.
  public var id: ObjectIdentifier { ObjectIdentifier(type) }

  /// The fully qualified name, such as `Contracts.AuthRepository`. Computed on
  /// demand: registering must not pay for reflection.
  ///
  /// `_typeName(qualified: true)` is what `String(reflecting:)` prints for
  /// a metatype, without first asking whether the metatype conforms to
  /// `CustomDebugStringConvertible` and its siblings: each of those
  /// conformance lookups scans every loaded library the first time a type
  /// is asked, which was 60 % of `plugboard list` at 200 plugins.
  public var name: String { _typeName(type, qualified: true) }

  /// The name without its module prefix: `AuthRepository`. Generic arguments
  /// keep their own qualification.
  public var shortName: String {
    let name = self.name
    let head = name.prefix { $0 != "<" }
    let shortHead = head.split(separator: ".").last.map(String.init) ?? String(head)
    return shortHead + name.dropFirst(head.count)
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

  public static func == (lhs: TypeIdentity, rhs: TypeIdentity) -> Bool { lhs.id == rhs.id }
  public func hash(into hasher: inout Hasher) { hasher.combine(id) }
  public var description: String { name }
}
