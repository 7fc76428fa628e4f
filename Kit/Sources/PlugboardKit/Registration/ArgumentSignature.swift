/// The argument types of a request, folded into one word as they are
/// passed, so that finding a registration with runtime arguments costs the
/// same small amount per argument at any arity, with no array of type
/// identifiers built per call. Equal signatures are only a hint: a match is
/// confirmed type by type (``ArgumentMatch``), so a collision can never
/// hand out a registration of other argument types.
@frozen @usableFromInline
struct ArgumentSignature {
  @usableFromInline var value: UInt

  @inlinable @inline(__always)
  init(_ first: any Any.Type) {
    value = Self.mix(0x243F_6A88_85A3_08D3, first)
  }

  @inlinable @inline(__always)
  mutating func append(_ type: any Any.Type) {
    value = Self.mix(value, type)
  }

  /// The signature of a registration's argument types.
  init(_ arguments: [TypeIdentity]) {
    value = 0x243F_6A88_85A3_08D3
    for argument in arguments { value = Self.mix(value, argument.type) }
  }

  @inlinable @inline(__always)
  static func mix(_ value: UInt, _ type: any Any.Type) -> UInt {
    let bits = UInt(bitPattern: unsafeBitCast(ObjectIdentifier(type), to: Int.self))
    // Order matters: (Int, String) and (String, Int) must differ.
    return ((value &<< 5 | value &>> 59) ^ bits) &* 0x9E37_79B9_7F4A_7C15
  }
}

/// Confirms, type by type, that a registration's argument types are the
/// ones passed. A value of the inlined resolve alone: Kit never sees one,
/// so its layout binds nothing, but it is frozen so that the inlined code
/// keeps it in registers.
@frozen @usableFromInline
struct ArgumentMatch {
  @usableFromInline let registered: UnsafeMutablePointer<ObjectIdentifier>
  @usableFromInline let count: Int
  @usableFromInline var index = 0
  @usableFromInline var matches = true

  @inlinable @inline(__always)
  init(_ slot: UnsafeMutablePointer<FastSlot>) {
    registered = slot.pointee.argumentTypes
    count = slot.pointee.argumentCount
  }

  @inlinable @inline(__always)
  mutating func check(_ type: any Any.Type) {
    matches = matches && index < count && registered[index] == ObjectIdentifier(type)
    index &+= 1
  }

  /// Whether every passed type matched and none was left over.
  @inlinable @inline(__always)
  var isComplete: Bool { matches && index == count }
}
