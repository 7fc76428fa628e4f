import Synchronization

/// Which requested types are wrapper requests (`Optional`, `Lazy`,
/// `Provider`, `Contributions`), asked on every request that matched no
/// registration.
///
/// The cast to `any WrapperRequest.Type` looks the type up in the
/// runtime's conformance cache, which even when cached costs more than
/// the rest of a miss of `resolveIfRegistered`. The types
/// that are not wrappers are remembered here instead, by the address of
/// their metadata, in a small direct-mapped table read without locks. A
/// slot holds one word written whole, equal to a type's address only once
/// that type's cast has failed; the answer never changes (no module but
/// PlugboardKit can conform to the internal protocol, and metadata are
/// never freed), so a reader that sees a stale or overwritten slot only
/// casts again. Wrappers themselves are not remembered: serving one
/// resolves another type, which costs far more than the cast.
enum WrapperTypes {
  /// The type as a wrapper request, or `nil` when it is not one.
  @inline(__always)
  static func wrapper(_ type: any Any.Type) -> (any WrapperRequest.Type)? {
    let bits = UInt(bitPattern: unsafeBitCast(ObjectIdentifier(type), to: Int.self))
    let slot = NotWrappers.shared.slot(for: bits)
    if slot.pointee.load(ordering: .relaxed) == bits { return nil }
    guard let wrapper = type as? any WrapperRequest.Type else {
      slot.pointee.store(bits, ordering: .relaxed)
      return nil
    }
    return wrapper
  }
}

/// The table behind ``WrapperTypes``: one word per slot, 0 while empty.
/// Allocated once and never freed, as the types it remembers never are.
private final class NotWrappers: @unchecked Sendable {
  static let shared = NotWrappers()

  /// 256 slots: enough for the distinct types one program asks for and
  /// does not register, in 2 KiB.
  private static var bits: Int { 8 }
  private static var count: Int { 1 << bits }
  // Written only through the atomics.
  private let slots: UnsafeMutablePointer<Atomic<UInt>>

  private init() {
    slots = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: Self.count)
    for index in 0..<Self.count { (slots + index).initialize(to: Atomic(0)) }
  }

  /// The slot for a metadata address, by Fibonacci hashing as
  /// ``Registry/index(of:shift:)`` does: metadata of one module lie a fixed
  /// stride apart, which the top bits of the product spread.
  @inline(__always)
  func slot(for bits: UInt) -> UnsafeMutablePointer<Atomic<UInt>> {
    slots + Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) &>> UInt(64 - Self.bits))
  }
}
