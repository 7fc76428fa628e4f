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
  /// The registrations that serve their keys, in registration order.
  let records: [RegistrationRecord]
  /// Registrations replaced by a later one with the same key.
  let duplicates: [DuplicateRegistration]
  /// Registrations whose profiles are not active.
  let inactive: [RegistrationRecord]
  let activeProfile: String?
  let selections: [ObjectIdentifier: ServiceSelection]

  /// Picks, for every key, the last registration whose profiles are active.
  init(
    records all: [RegistrationRecord], activeProfile: String?,
    selections: [ObjectIdentifier: ServiceSelection]
  ) {
    self.activeProfile = activeProfile
    self.selections = selections
    var winners: [ServiceKey: RegistrationRecord] = [:]
    var order: [ServiceKey] = []
    var duplicates: [DuplicateRegistration] = []
    var inactive: [RegistrationRecord] = []
    for record in all {
      guard record.isActive(inProfile: activeProfile) else {
        inactive.append(record)
        continue
      }
      if let replaced = winners.updateValue(record, forKey: record.key) {
        duplicates.append(
          DuplicateRegistration(key: record.key, winner: record.site, replaced: replaced.site))
      } else {
        order.append(record.key)
      }
    }
    let records = order.compactMap { winners[$0] }
    self.records = records
    self.duplicates = duplicates
    self.inactive = inactive
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
      buckets[index] = TypeBucket(group, selection: selections[id])
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

  /// The profile's choice of named registration for unnamed requests.
  let selection: ServiceSelection?

  init(_ records: [RegistrationRecord], selection: ServiceSelection?) {
    self.all = records
    self.selection = selection
    let servesUnnamed = selection?.name
    self.plain = records.first { $0.key.name == servesUnnamed && $0.key.arguments.isEmpty }
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
