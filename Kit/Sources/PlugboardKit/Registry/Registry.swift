import Synchronization

// The lock-free registry: this folder's types, and how a resolve finds a
// registration without taking a lock.
//
//   Container ─ hot ─▶ ContainerHotPath.published ─▶ Registry ─ slots ─▶ records (unretained)
//       ├─ fastKeeper ─▶ FastTable ─▶ FastSlot of each record   (mirrors the plain slots)
//       │                                            (lookup tables, read without locks)
//       └─ state (behind the container's lock)
//            ├─ log: RegistrationLog ─▶ [ r0 r1 r2 … rn ]  every registration, in order; grows at its end
//            │                          ▲
//            │        RegistrySnapshot(log, count: k): r0…r(k-1), for what looks at them all
//            ├─ current: Registry        the one published
//            └─ retired: [Registry]      replaced; freed once no reader can hold them
//
// What holds, and what relies on it:
// 1. A record is stamped (site, position) under the container's lock before
//    any registry or snapshot includes it, and the log keeps it alive as
//    long as the container: the tables hold it unretained.
// 2. The records below a snapshot's count are never written again, so a
//    snapshot is the log and a count, and copies nothing.
// 3. A registry's tables change only under the container's lock, and a
//    slot's key is written once, after its record: a reader finds the
//    registration before a change or the one after it, never half of one.
// 4. A replaced registry is freed only when ``ReaderGate`` shows that no
//    reader that entered before the replacement is still inside.
// 5. None of this is frozen: plugins inline only the lookup of each
//    container's `FastTable` (FastPath/), which mirrors what this registry
//    serves to unnamed, argument-free requests, and call Kit for the rest.
// 6. Every lock-free read goes through `Container.readingPublished(in:_:)`:
//    enter the gate, load `published`, read the registry unretained, leave.
//    A caller that finds nothing published publishes after leaving, since
//    `publish` frees retired registries only when no reader, the caller
//    included, is counted in. The helper is inlined into every lookup Kit
//    makes, so its body is spelt for the optimiser: spellings that read the same
//    (`Optional.map` over the pointer, passing `read` itself to
//    `_withUnsafeGuaranteedRef`) cost the resolve more instructions, while
//    this one counts the same as the reads written out by hand
//    (Benchmarks/LEDGER.md). Measure before changing it.

/// The lookup tables of one container's registrations, read without locks.
///
/// The common request (a type, no name, no arguments) hashes the metatype's
/// address into an open-addressing table whose slots hold the registration
/// directly, unretained: far cheaper than hashing a `ServiceKey` into a
/// `Dictionary`, and free of reference-count traffic that would make
/// threads contend on a shared cache line. The records stay alive because
/// the container keeps every registration.
///
/// The tables have spare capacity, and the common changes (a registration
/// without a name, or with a short ASCII name, of a type no profile
/// selection concerns) are published by writing into them in place, under
/// the container's lock, while readers look on: a slot's key is written
/// once, after its record, and records are read and written atomically, so
/// a reader finds either the registration before the change or the new
/// one. Registering after every resolve so costs a few stores, not a
/// rebuild from every registration. Any other change, or a
/// table out of room, makes the container build a new registry (with
/// room for as many again, when room was what ran out) and free the
/// replaced one once no lock-free reader can still hold it (see
/// ``ReaderGate``).
final class Registry: @unchecked Sendable {
  // Fixed at init.
  let mask: Int
  /// 64 minus the table's size in bits: the hash is the top bits of the
  /// product (see ``index(of:shift:)``).
  let shift: Int
  /// Each slot's type (the metatype's address), 0 while empty; written
  /// once.
  let keys: UnsafeMutablePointer<Atomic<UInt>>
  /// Each slot's registration for unnamed, argument-free requests.
  let plain: UnsafeMutablePointer<Atomic<Unmanaged<RegistrationRecord>?>>
  /// Each slot's type's ``TypeBucket``, if it has one; never changed after
  /// init (a change to a bucket makes a new registry).
  private let buckets: ContiguousArray<TypeBucket?>
  /// `buckets`, unretained, for named lookups without reference counting.
  private let bucketRefs: UnsafeMutablePointer<Unmanaged<TypeBucket>?>
  /// The named, argument-free registrations whose names are short and
  /// ASCII, for the quick lookup inlined into `resolve` (see
  /// ``quickNamedRecord(for:name:)``).
  let quickNamed: QuickNameTable
  let activeProfile: String?
  let selections: [ObjectIdentifier: ServiceSelection]
  // Written by the container, under its lock, only.
  /// The slots of `keys` taken.
  private var typesUsed = 0
  /// The slots of `quickNamed` taken.
  private var namesUsed = 0

  /// What ``insert(_:)`` did with a registration.
  enum Insertion {
    /// Readers now find it (or nothing changed for them: its profiles are
    /// not active).
    case placed
    /// A table is out of room: build a new registry with room for more.
    case needsRoom
    /// It changes what only a new registry can (a type's bucket, a
    /// profile's selection).
    case needsRebuild
  }

  /// Picks, for every key, the last of `all` whose profiles are active.
  ///
  /// Built in one pass over the registrations with no per-type allocation
  /// for the common case (one unnamed registration per type): later
  /// registrations overwrite earlier ones in the slots, and only types
  /// with long or non-ASCII names, with argument-taking registrations or
  /// with a selection get a ``TypeBucket``. `room`: how many more types
  /// and short names the tables take before a new registry is needed,
  /// beyond what their usual load leaves.
  init(
    records all: [RegistrationRecord], activeProfile: String?,
    selections: [ObjectIdentifier: ServiceSelection], room: (types: Int, names: Int) = (0, 0)
  ) {
    // The words of each name the quick table holds, nil for the others.
    let quick = all.map { record in
      record.key.arguments.isEmpty && record.key.role == .service
        ? record.key.name.flatMap(Registry.quickWords(of:)) : nil
    }
    let named = quick.count { $0 != nil }
    // Every typed registration and selection may need a slot of its own.
    var slots = TypeSlots(roomFor: all.count - named + selections.count + room.types)
    let quickNamed = QuickNameTable(roomFor: named + room.names)
    let placed = Self.place(
      all, quick: quick, in: &slots, quickNamed: quickNamed, activeProfile: activeProfile,
      selections: selections)
    let buckets = Self.buckets(of: placed.members, in: &slots)
    self.activeProfile = activeProfile
    self.selections = selections
    self.mask = slots.mask
    self.shift = slots.shift
    self.keys = slots.keys
    self.plain = slots.plain
    self.buckets = buckets
    self.bucketRefs = Self.unretained(buckets)
    self.quickNamed = quickNamed
    self.typesUsed = slots.used
    self.namesUsed = placed.namesUsed
    serveSelections()
  }

  /// Places each of `all` whose profiles are active, later ones over
  /// earlier ones: a short name (`quick` holds its words) in the quick
  /// table, an unnamed, argument-free service of a type no selection
  /// concerns in its type's slot; returns the others (decorators and
  /// contributions among them) by type, with an entry for every selected
  /// type, to be its bucket's members, and how many of the quick table's
  /// slots are taken.
  private static func place(
    _ all: [RegistrationRecord], quick: [(UInt64, UInt64)?], in slots: inout TypeSlots,
    quickNamed: QuickNameTable, activeProfile: String?,
    selections: [ObjectIdentifier: ServiceSelection]
  ) -> (members: [ObjectIdentifier: [RegistrationRecord]], namesUsed: Int) {
    var members: [ObjectIdentifier: [RegistrationRecord]] = [:]
    var namesUsed = 0
    for id in selections.keys { members[id] = [] }
    for index in 0..<all.count {
      let record = all[index]
      guard record.isActive(inProfile: activeProfile) else { continue }
      let id = record.key.service.id
      if let words = quick[index] {
        if quickNamed.insert(record, words: words, used: namesUsed) == true { namesUsed += 1 }
      } else if record.key.name == nil && record.key.arguments.isEmpty && record.key.role == .service
        && selections[id] == nil
      {
        slots.plain[slots.slot(for: id)].store(Unmanaged.passUnretained(record), ordering: .relaxed)
      } else {
        members[id, default: []].append(record)
      }
    }
    return (members, namesUsed)
  }

  /// A ``TypeBucket`` of each type's `members`, at the type's slot.
  private static func buckets(
    of members: [ObjectIdentifier: [RegistrationRecord]], in slots: inout TypeSlots
  ) -> ContiguousArray<TypeBucket?> {
    var buckets = ContiguousArray<TypeBucket?>(repeating: nil, count: slots.mask + 1)
    for (id, records) in members {
      buckets[slots.slot(for: id)] = TypeBucket(records)
    }
    return buckets
  }

  /// `buckets`, unretained, for lookups without reference counting.
  private static func unretained(_ buckets: ContiguousArray<TypeBucket?>)
    -> UnsafeMutablePointer<Unmanaged<TypeBucket>?>
  {
    let refs = UnsafeMutablePointer<Unmanaged<TypeBucket>?>.allocate(capacity: buckets.count)
    for index in 0..<buckets.count {
      (refs + index).initialize(to: buckets[index].map(Unmanaged.passUnretained))
    }
    return refs
  }

  /// Points each selected type's slot for unnamed requests at its
  /// registration under the selected name, wherever that is held (or at
  /// nothing).
  private func serveSelections() {
    for (id, selection) in selections {
      guard let index = slot(of: id) else { continue }
      plain[index].store(namedRecord(for: id, name: selection.name), ordering: .relaxed)
    }
  }

  deinit {
    quickNamed.deallocate()
    bucketRefs.deallocate()
    keys.deallocate()
    plain.deallocate()
  }

  /// The inline words of `name` when it is held in the quick table: ASCII
  /// (so no other bytes make an equal string) and short enough to be
  /// held inline.
  static func quickWords(of name: String) -> (UInt64, UInt64)? {
    guard !TypeBucket.isNotASCII(name) else { return nil }
    return QuickNameTable.canonicalWords(of: name)
  }

  /// Publishes `record` into these tables in place, if it can be; called
  /// by the container, under its lock, for registrations made after the
  /// registry was built (with the same profile and selections).
  func insert(_ record: RegistrationRecord) -> Insertion {
    guard record.isActive(inProfile: activeProfile) else { return .placed }
    let id = record.key.service.id
    guard selections[id] == nil, record.key.arguments.isEmpty, record.key.role == .service else {
      return .needsRebuild
    }
    if let name = record.key.name {
      guard let words = Self.quickWords(of: name) else { return .needsRebuild }
      switch quickNamed.insert(record, words: words, used: namesUsed) {
      case nil: return .needsRoom
      case true?: namesUsed += 1
      case false?: break
      }
      return .placed
    }
    let bits = Self.bits(of: id)
    var index = Self.index(of: bits, shift: shift)
    while true {
      let key = keys[index].load(ordering: .relaxed)
      if key == bits {
        plain[index].store(Unmanaged.passUnretained(record), ordering: .releasing)
        return .placed
      }
      if key == 0 { break }
      index = (index &+ 1) & mask
    }
    guard (typesUsed + 1) * 2 <= mask + 1 else { return .needsRoom }
    // The record before the key: a reader that finds the key finds it.
    plain[index].store(Unmanaged.passUnretained(record), ordering: .releasing)
    keys[index].store(bits, ordering: .releasing)
    typesUsed += 1
    return .placed
  }

  /// How many types and short names the tables hold: the room to leave in
  /// the next registry when this one ran out, so that each new registry
  /// takes as many again.
  var used: (types: Int, names: Int) { (typesUsed, namesUsed) }

  @inline(__always)
  static func bits(of id: ObjectIdentifier) -> UInt {
    UInt(bitPattern: unsafeBitCast(id, to: Int.self))
  }

  @inline(__always)
  static func index(of bits: UInt, shift: Int) -> Int {
    // Fibonacci hashing: the top bits of the product. Metatypes of one
    // module lie a fixed stride apart, and lower bits of the product make
    // such keys collide into long runs of probes; the top bits do not.
    Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) &>> UInt(truncatingIfNeeded: shift))
  }

  @inline(__always)
  func slot(of id: ObjectIdentifier) -> Int? {
    let bits = Self.bits(of: id)
    var index = Self.index(of: bits, shift: shift)
    while true {
      // Acquiring: a slot's record is stored before its key.
      let key = keys[index].load(ordering: .acquiring)
      if key == bits { return index }
      if key == 0 { return nil }
      index = (index &+ 1) & mask
    }
  }

  /// Calls `body` with each type's registration for unnamed,
  /// argument-free requests: what the container's ``FastTable`` mirrors.
  func forEachPlain(_ body: (ObjectIdentifier, Unmanaged<RegistrationRecord>) -> Void) {
    for index in 0...mask {
      let key = keys[index].load(ordering: .acquiring)
      guard key != 0, let record = plain[index].load(ordering: .acquiring) else { continue }
      body(record._withUnsafeGuaranteedRef { $0.key.service.id }, record)
    }
  }

  /// The registration serving unnamed, argument-free requests for the type.
  @inline(__always)
  func plainRecord(for id: ObjectIdentifier) -> Unmanaged<RegistrationRecord>? {
    guard let index = slot(of: id) else { return nil }
    return plain[index].load(ordering: .acquiring)
  }

  /// The registration of the type under `name` taking no arguments, when
  /// `name` is held exactly as the registration's (see
  /// ``QuickNameTable``); `nil` says only "look further".
  @inline(__always)
  func quickNamedRecord(for id: ObjectIdentifier, name: String) -> Unmanaged<RegistrationRecord>? {
    quickNamed.record(for: Self.bits(of: id), words: QuickNameTable.words(of: name))
  }

  /// The registration of the type under `name` taking no arguments,
  /// however `name` is held: in the quick table by the words of its inline
  /// form, or in the type's name table, or, for a name that is not ASCII,
  /// among the type's names that are canonically equivalent to it.
  func namedRecord(for id: ObjectIdentifier, name: String) -> Unmanaged<RegistrationRecord>? {
    if let words = Self.quickWords(of: name),
      let found = quickNamed.record(for: Self.bits(of: id), words: words)
    {
      return found
    }
    guard let index = slot(of: id), let bucket = bucketRefs[index] else { return nil }
    return bucket._withUnsafeGuaranteedRef { bucket in
      if let found = bucket.record(named: name) { return found }
      // Both tables compare bytes, and Swift compares strings by canonical
      // equivalence ("é" precomposed equals "e" and a combining accent),
      // as `ServiceKey` does for duplicates and the argument lookups do.
      // Two ASCII names are equivalent only when their bytes are equal.
      guard TypeBucket.isNotASCII(name) else { return nil }
      return bucket.record(equivalentTo: name)
    }
  }

  /// The registration of the type under `name` whose argument types have
  /// this signature (to be confirmed type by type; see
  /// ``ArgumentSignature``).
  @inline(__always)
  func argumentRecord(for id: ObjectIdentifier, name: String?, signature: UInt)
    -> Unmanaged<RegistrationRecord>?
  {
    guard let index = slot(of: id), let bucket = bucketRefs[index] else { return nil }
    return bucket._withUnsafeGuaranteedRef { $0.record(named: name, signature: signature) }
  }

  /// Whether a request for the type under `name`, with no arguments,
  /// reaches a registration here, taking arguments or not: what
  /// `resolveIfRegistered` asks, on every miss, before it answers `nil`.
  /// One probe for an unnamed request, and nothing allocated.
  func serves(_ id: ObjectIdentifier, name: String?) -> Bool {
    guard let name else {
      guard let index = slot(of: id) else { return false }
      if plain[index].load(ordering: .acquiring) != nil { return true }
      return bucketRefs[index]?._withUnsafeGuaranteedRef { $0.hasRecords(named: nil) } ?? false
    }
    return namedRecord(for: id, name: name) != nil || hasRecords(for: id, name: name)
  }

  /// Whether ``records(for:name:)`` finds any registration, without
  /// building its array.
  func hasRecords(for id: ObjectIdentifier, name: String?) -> Bool {
    let index = slot(of: id)
    if let index, let bucket = bucketRefs[index],
      bucket._withUnsafeGuaranteedRef({ $0.hasRecords(named: name) })
    {
      return true
    }
    if let name { return quickNamed(for: id, name: name) != nil }
    guard let index, selections[id] == nil else { return false }
    return plain[index].load(ordering: .acquiring) != nil
  }

  /// The registration of the type under `name` whose arguments have these
  /// identities.
  func record(for id: ObjectIdentifier, name: String?, arguments: [ObjectIdentifier])
    -> RegistrationRecord?
  {
    guard let index = slot(of: id) else { return nil }
    return buckets[index]?.record(named: name, arguments: arguments)
  }

  /// The decorator or contribution of the type stored under `role`.
  func record(for id: ObjectIdentifier, role: ServiceKey.Role) -> Unmanaged<RegistrationRecord>? {
    guard let index = slot(of: id), let bucket = bucketRefs[index] else { return nil }
    return bucket._withUnsafeGuaranteedRef { $0.record(role: role) }
  }

  /// The registrations of the type under `name`, with or without
  /// arguments, in registration order.
  func records(for id: ObjectIdentifier, name: String?) -> [RegistrationRecord] {
    let index = slot(of: id)
    var found = index.flatMap { buckets[$0]?.records(named: name) } ?? []
    guard !found.contains(where: { $0.key.arguments.isEmpty }) else { return found }
    // The argument-free one is in the bucket only when the quick tables do
    // not hold it: a long or non-ASCII name, a selected type's unnamed one.
    let free: RegistrationRecord?
    if let name {
      free = quickNamed(for: id, name: name)
    } else if let index, selections[id] == nil {
      free = plain[index].load(ordering: .acquiring)?.takeUnretainedValue()
    } else {
      free = nil
    }
    guard let free else { return found }
    found.append(free)
    found.sort { $0.sequence < $1.sequence }
    return found
  }

  private func quickNamed(for id: ObjectIdentifier, name: String) -> RegistrationRecord? {
    guard let words = Self.quickWords(of: name) else { return nil }
    return quickNamed.record(for: Self.bits(of: id), words: words)?.takeUnretainedValue()
  }
}

/// The type slots of a registry being built: each type's key and its
/// registration for unnamed, argument-free requests, in an
/// open-addressing table at most half full.
private struct TypeSlots {
  let mask: Int
  let shift: Int
  let keys: UnsafeMutablePointer<Atomic<UInt>>
  let plain: UnsafeMutablePointer<Atomic<Unmanaged<RegistrationRecord>?>>
  /// The slots taken.
  private(set) var used = 0

  /// Empty slots, enough for `count` types.
  init(roomFor count: Int) {
    var capacity = 8
    while capacity < count * 2 { capacity <<= 1 }
    mask = capacity - 1
    shift = 64 - capacity.trailingZeroBitCount
    keys = CacheLine.allocate(Atomic<UInt>.self, count: capacity)
    plain = CacheLine.allocate(Atomic<Unmanaged<RegistrationRecord>?>.self, count: capacity)
    for index in 0..<capacity {
      (keys + index).initialize(to: Atomic(0))
      (plain + index).initialize(to: Atomic(nil))
    }
  }

  /// The slot of the type, taken now if it has none.
  mutating func slot(for id: ObjectIdentifier) -> Int {
    let bits = Registry.bits(of: id)
    var index = Registry.index(of: bits, shift: shift)
    while true {
      let key = keys[index].load(ordering: .relaxed)
      if key == bits { return index }
      if key == 0 { break }
      index = (index &+ 1) & mask
    }
    keys[index].store(bits, ordering: .relaxed)
    used += 1
    return index
  }
}

/// The registrations of one service type that the quick tables do not
/// hold: those with arguments, those with names that are long or not
/// ASCII, for a type a profile selection concerns the unnamed one, and the
/// decorators and contributions of the type, which no request names.
final class TypeBucket: @unchecked Sendable {
  // Never mutated after init.
  /// The members serving requests, in registration order.
  private let services: [RegistrationRecord]
  private let named: NameTable
  /// The argument-free named registrations whose names are not ASCII: the
  /// only ones a name held in other bytes can be canonically equal to.
  private let nonASCIINamed: [RegistrationRecord]
  /// The registrations taking arguments, with their signatures.
  private let withArguments: ContiguousArray<(signature: UInt, record: Unmanaged<RegistrationRecord>)>
  /// The decorators and contributions, by their role.
  private let roled: [ServiceKey.Role: Unmanaged<RegistrationRecord>]

  /// A bucket of the last of `members` (in registration order) for each
  /// key.
  init(_ members: [RegistrationRecord]) {
    var latest: [ServiceKey: Int] = [:]
    for (index, record) in members.enumerated() { latest[record.key] = index }
    let records =
      latest.count == members.count ? members : latest.values.sorted().map { members[$0] }
    let services = records.filter { $0.key.role == .service }
    self.services = services
    self.named = NameTable(services.filter { $0.key.name != nil && $0.key.arguments.isEmpty })
    self.nonASCIINamed = services.filter {
      $0.key.arguments.isEmpty && $0.key.name.map(Self.isNotASCII) == true
    }
    self.withArguments = ContiguousArray(
      services.filter { !$0.key.arguments.isEmpty }.map {
        (ArgumentSignature($0.key.arguments).value, Unmanaged.passUnretained($0))
      })
    var roled: [ServiceKey.Role: Unmanaged<RegistrationRecord>] = [:]
    for record in records where record.key.role != .service {
      roled[record.key.role] = Unmanaged.passUnretained(record)
    }
    self.roled = roled
  }

  /// The decorator or contribution stored under `role`.
  func record(role: ServiceKey.Role) -> Unmanaged<RegistrationRecord>? {
    roled[role]
  }

  /// The first registration under `name` whose argument types have this
  /// signature.
  @inline(__always)
  func record(named name: String?, signature: UInt) -> Unmanaged<RegistrationRecord>? {
    withArguments.withUnsafeBufferPointer { entries in
      for entry in entries where entry.signature == signature {
        if entry.record._withUnsafeGuaranteedRef({ $0.key.name == name }) { return entry.record }
      }
      return nil
    }
  }

  /// Whether any registration, with arguments or not, is under `name`.
  func hasRecords(named name: String?) -> Bool {
    services.contains { $0.key.name == name }
  }

  /// The registration under `name` taking no arguments.
  @inline(__always)
  func record(named name: String) -> Unmanaged<RegistrationRecord>? {
    named.record(named: name)
  }

  /// Whether `name` has a byte above 0x7F: only then can another string
  /// be canonically equal to it with other bytes.
  ///
  /// Read eight bytes at a time from the string's own storage: iterating
  /// its `utf8` view costs a call per byte, too much for a registry built
  /// from thousands of long names.
  static func isNotASCII(_ name: String) -> Bool {
    let contiguous = name.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
      guard let base = bytes.baseAddress else { return false }
      let raw = UnsafeRawPointer(base)
      var offset = 0
      var high: UInt64 = 0
      while offset + 8 <= bytes.count {
        high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
      }
      while offset < bytes.count {
        high |= UInt64(bytes[offset])
        offset += 1
      }
      return high & 0x8080_8080_8080_8080 != 0
    }
    return contiguous ?? name.utf8.contains { $0 >= 0x80 }
  }

  /// The argument-free registration whose name is canonically equivalent
  /// to `name` but held in other bytes (see
  /// ``Registry/namedRecord(for:name:)``).
  func record(equivalentTo name: String) -> Unmanaged<RegistrationRecord>? {
    nonASCIINamed.first { $0.key.name == name }.map { Unmanaged.passUnretained($0) }
  }

  /// The registration under `name` whose arguments have these identities.
  func record(named name: String?, arguments: [ObjectIdentifier]) -> RegistrationRecord? {
    services.first { record in
      record.key.name == name
        && record.key.arguments.count == arguments.count
        && zip(record.key.arguments, arguments).allSatisfy { $0.id == $1 }
    }
  }

  /// Registrations under `name` with any arguments.
  func records(named name: String?) -> [RegistrationRecord] {
    services.filter { $0.key.name == name }
  }
}

/// Named registrations of one type, found by a cheap FNV-1a hash of the
/// name's UTF-8 bytes; `Hasher` costs more than the rest of a lookup. The
/// common request, a name written as a literal, is found before this
/// table by ``Registry/quickNamedRecord(for:name:)``.
struct NameTable: @unchecked Sendable {
  private let mask: Int
  private let hashes: ContiguousArray<UInt64>
  private let records: ContiguousArray<Unmanaged<RegistrationRecord>?>

  init(_ named: [RegistrationRecord]) {
    var capacity = 4
    while capacity < named.count * 2 { capacity <<= 1 }
    var hashes = ContiguousArray<UInt64>(repeating: 0, count: capacity)
    var records = ContiguousArray<Unmanaged<RegistrationRecord>?>(repeating: nil, count: capacity)
    let mask = capacity - 1
    for record in named {
      guard let name = record.key.name else { continue }
      let hash = Self.hash(name)
      var index = Int(truncatingIfNeeded: hash) & mask
      while records[index] != nil { index = (index &+ 1) & mask }
      hashes[index] = hash
      records[index] = Unmanaged.passUnretained(record)
    }
    self.mask = mask
    self.hashes = hashes
    self.records = records
  }

  @inline(__always)
  func record(named name: String) -> Unmanaged<RegistrationRecord>? {
    let hash = Self.hash(name)
    var index = Int(truncatingIfNeeded: hash) & mask
    while let candidate = records[index] {
      if hashes[index] == hash, candidate._withUnsafeGuaranteedRef({ $0.key.name == name }) {
        return candidate
      }
      index = (index &+ 1) & mask
    }
    return nil
  }

  @inline(__always)
  static func hash(_ name: String) -> UInt64 {
    var name = name
    return name.withUTF8 { bytes in
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      return hash
    }
  }
}
