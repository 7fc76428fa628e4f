/// An immutable snapshot of one container's registrations, built when the
/// first resolution after a change needs it and then read without locks.
///
/// Lookups hash the metatype's address into an open-addressing table, which
/// is much cheaper than hashing a `ServiceKey` into a `Dictionary`; the
/// common case (no name, no arguments) is a single field read after that.
final class Registry: @unchecked Sendable {
  // Never mutated after init.
  private let slots: [UInt]
  private let buckets: [TypeBucket?]
  private let mask: Int
  /// Every registration in registration order (winners only).
  let records: [RegistrationRecord]

  static let empty = Registry(records: [])

  init(records: [RegistrationRecord]) {
    self.records = records
    var grouped: [ObjectIdentifier: [RegistrationRecord]] = [:]
    for record in records { grouped[record.key.service.id, default: []].append(record) }
    var capacity = 8
    while capacity < grouped.count * 2 { capacity <<= 1 }
    var slots = [UInt](repeating: 0, count: capacity)
    var buckets = [TypeBucket?](repeating: nil, count: capacity)
    let mask = capacity - 1
    for (id, group) in grouped {
      let bits = UInt(bitPattern: Self.bits(of: id))
      var index = Self.index(of: bits, mask: mask)
      while slots[index] != 0 { index = (index + 1) & mask }
      slots[index] = bits
      buckets[index] = TypeBucket(group)
    }
    self.slots = slots
    self.buckets = buckets
    self.mask = mask
  }

  @inline(__always)
  private static func bits(of id: ObjectIdentifier) -> Int {
    Int(bitPattern: UInt(bitPattern: unsafeBitCast(id, to: Int.self)))
  }

  @inline(__always)
  private static func index(of bits: UInt, mask: Int) -> Int {
    // Metatype addresses are aligned; multiplying spreads the high bits down.
    Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  /// Every registration of one service type, under any name or arguments.
  @inline(__always)
  func bucket(for id: ObjectIdentifier) -> TypeBucket? {
    let bits = UInt(bitPattern: Self.bits(of: id))
    var index = Self.index(of: bits, mask: mask)
    return slots.withUnsafeBufferPointer { slots in
      while true {
        let slot = slots[index]
        if slot == bits { return buckets[index] }
        if slot == 0 { return nil }
        index = (index + 1) & mask
      }
    }
  }
}

/// The registrations of one service type.
final class TypeBucket: @unchecked Sendable {
  // Never mutated after init.
  /// The registration with no name and no arguments, the common case.
  let plain: RegistrationRecord?
  let all: [RegistrationRecord]
  private let byName: [String: [RegistrationRecord]]

  init(_ records: [RegistrationRecord]) {
    self.all = records
    self.plain = records.first { $0.key.name == nil && $0.key.arguments.isEmpty }
    var byName: [String: [RegistrationRecord]] = [:]
    for record in records { byName[record.key.name ?? "", default: []].append(record) }
    self.byName = byName
  }

  /// The registration under `name` taking no arguments.
  @inline(__always)
  func record(named name: String?) -> RegistrationRecord? {
    guard let name else { return plain }
    return byName[name]?.first { $0.key.arguments.isEmpty }
  }

  /// The registration under `name` whose arguments have these identities.
  func record(named name: String?, arguments: [ObjectIdentifier]) -> RegistrationRecord? {
    byName[name ?? ""]?.first { record in
      record.key.name == name
        && record.key.arguments.count == arguments.count
        && zip(record.key.arguments, arguments).allSatisfy { $0.id == $1 }
    }
  }

  /// Registrations under `name` with any arguments.
  func records(named name: String?) -> [RegistrationRecord] {
    (byName[name ?? ""] ?? []).filter { $0.key.name == name }
  }
}
