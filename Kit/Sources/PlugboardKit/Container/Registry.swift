/// An immutable snapshot of one container's registrations, built when the
/// first resolution after a change needs it and then read without locks.
///
/// The common request (a type, no name, no arguments) hashes the metatype's
/// address into an open-addressing table whose slots hold the registration
/// directly, unretained: far cheaper than hashing a `ServiceKey` into a
/// `Dictionary`, and free of reference-count traffic that would make
/// threads contend on a shared cache line. The records stay alive because
/// `records` (and the container, which keeps every registration) holds
/// them. The container frees a replaced snapshot once no lock-free reader
/// can still hold it (see ``ReaderGate``).
@usableFromInline
final class Registry: @unchecked Sendable {
  // Never mutated after init. The lookup fields are visible to inlinable
  // code so that a singleton resolve runs entirely in the caller.
  @usableFromInline let mask: Int
  /// 64 minus the table's size in bits: the hash is the top bits of the
  /// product (see ``index(of:shift:)``).
  @usableFromInline let shift: Int
  @usableFromInline let keys: UnsafeMutablePointer<UInt>
  @usableFromInline let plain: UnsafeMutablePointer<Unmanaged<RegistrationRecord>?>
  private let buckets: ContiguousArray<TypeBucket?>
  /// `buckets`, unretained, for named lookups without reference counting.
  private let bucketRefs: UnsafeMutablePointer<Unmanaged<TypeBucket>?>
  /// The named, argument-free registrations, by type and name, for the
  /// quick lookup inlined into `resolve` (see ``quickNamedRecord(for:name:)``).
  @usableFromInline let quickNamed: QuickNameTable

  /// The registrations that serve their keys, in registration order.
  let records: [RegistrationRecord]
  /// Registrations replaced by a later one with the same key, with the
  /// winner's position.
  let duplicates: [(sequence: Int, duplicate: DuplicateRegistration)]
  /// The replacements in `duplicates` that hold in every profile (neither
  /// registration is profile-tagged), so the replaced registration is
  /// left out of the next snapshot's input.
  let settled: [(sequence: Int, duplicate: DuplicateRegistration)]
  /// The input minus the registrations `settled` replaced: what the next
  /// snapshot starts from when only registrations were added.
  let survivors: [RegistrationRecord]
  /// Registrations whose profiles are not active.
  let inactive: [RegistrationRecord]
  let activeProfile: String?
  let selections: [ObjectIdentifier: ServiceSelection]

  /// Picks, for every key, the last registration whose profiles are active.
  ///
  /// Built in one pass over the registrations with no per-type allocation
  /// for the common case (one unnamed registration per type): the slot
  /// table itself detects duplicates, and only types with named or
  /// argument-taking registrations get a ``TypeBucket``.
  init(
    records all: [RegistrationRecord], activeProfile: String?,
    selections: [ObjectIdentifier: ServiceSelection]
  ) {
    self.activeProfile = activeProfile
    self.selections = selections
    var capacity = 8
    while capacity < max(all.count, selections.count) * 2 { capacity <<= 1 }
    let mask = capacity - 1
    let shift = 64 - capacity.trailingZeroBitCount
    let keys = CacheLine.allocate(UInt.self, count: capacity)
    keys.initialize(repeating: 0, count: capacity)
    let plain = CacheLine.allocate(Unmanaged<RegistrationRecord>?.self, count: capacity)
    plain.initialize(repeating: nil, count: capacity)

    func slot(for id: ObjectIdentifier) -> Int {
      let bits = Self.bits(of: id)
      var index = Self.index(of: bits, shift: shift)
      while keys[index] != 0 && keys[index] != bits { index = (index &+ 1) & mask }
      keys[index] = bits
      return index
    }

    var winner = [Bool](repeating: false, count: all.count)
    var plainOwner = [Int](repeating: -1, count: capacity)
    var others: [Int: [Int]] = [:]
    var replaced: [(sequence: Int, duplicate: DuplicateRegistration)] = []
    var pruned = [Bool](repeating: false, count: all.count)
    var settled: [(sequence: Int, duplicate: DuplicateRegistration)] = []
    func replace(_ previous: Int, by index: Int) {
      winner[previous] = false
      let pair = (
        all[index].sequence,
        DuplicateRegistration(key: all[index].key, winner: all[index].site, replaced: all[previous].site)
      )
      replaced.append(pair)
      if !all[previous].hasProfiles.load(ordering: .relaxed)
        && !all[index].hasProfiles.load(ordering: .relaxed)
      {
        pruned[previous] = true
        settled.append(pair)
      }
    }
    var inactive: [RegistrationRecord] = []
    for index in 0..<all.count {
      let record = all[index]
      guard record.isActive(inProfile: activeProfile) else {
        inactive.append(record)
        continue
      }
      winner[index] = true
      let at = slot(for: record.key.service.id)
      if record.key.name == nil && record.key.arguments.isEmpty {
        let previous = plainOwner[at]
        if previous >= 0 { replace(previous, by: index) }
        plainOwner[at] = index
        plain[at] = Unmanaged.passUnretained(record)
      } else {
        others[at, default: []].append(index)
      }
    }
    for indices in others.values {
      var latest: [ServiceKey: Int] = [:]
      for index in indices {
        guard let previous = latest.updateValue(index, forKey: all[index].key) else { continue }
        replace(previous, by: index)
      }
    }
    // Usually every registration wins and none is pruned: then both lists
    // are the input itself, with no copy.
    var records: [RegistrationRecord] = []
    if replaced.isEmpty && inactive.isEmpty {
      records = all
    } else {
      records.reserveCapacity(all.count)
      for index in 0..<all.count where winner[index] { records.append(all[index]) }
    }

    // Named registrations are among `others`, never in the plain slots.
    // Those whose names fit inline go to the quick table, the others to
    // their type's name table.
    var quickNamed: [(record: RegistrationRecord, words: (UInt64, UInt64))] = []
    var inQuickTable = Set<ObjectIdentifier>()
    for indices in others.values {
      for index in indices where winner[index] && all[index].key.arguments.isEmpty {
        guard let name = all[index].key.name, let words = QuickNameTable.canonicalWords(of: name)
        else { continue }
        quickNamed.append((all[index], words))
        inQuickTable.insert(ObjectIdentifier(all[index]))
      }
    }
    var buckets = ContiguousArray<TypeBucket?>(repeating: nil, count: capacity)
    var bucketed: [Int: ObjectIdentifier] = [:]
    for indices in others.values {
      if let first = indices.first {
        bucketed[slot(for: all[first].key.service.id)] = all[first].key.service.id
      }
    }
    for id in selections.keys { bucketed[slot(for: id)] = id }
    for (at, id) in bucketed {
      let members = ([plainOwner[at]] + (others[at] ?? [])).filter { $0 >= 0 && winner[$0] }.sorted()
        .map { all[$0] }
      let bucket = TypeBucket(members, selection: selections[id], inQuickTable: inQuickTable)
      buckets[at] = bucket
      plain[at] = bucket.plain.map(Unmanaged.passUnretained)
    }

    self.records = records
    self.duplicates = replaced.sorted { $0.sequence < $1.sequence }
    self.settled = settled
    if settled.isEmpty {
      self.survivors = all
    } else {
      var survivors: [RegistrationRecord] = []
      survivors.reserveCapacity(all.count - settled.count)
      for index in 0..<all.count where !pruned[index] { survivors.append(all[index]) }
      self.survivors = survivors
    }
    self.inactive = inactive
    self.mask = mask
    self.shift = shift
    self.keys = keys
    self.plain = plain
    self.buckets = buckets
    let bucketRefs = UnsafeMutablePointer<Unmanaged<TypeBucket>?>.allocate(capacity: capacity)
    for index in 0..<capacity {
      (bucketRefs + index).initialize(to: buckets[index].map(Unmanaged.passUnretained))
    }
    self.bucketRefs = bucketRefs
    self.quickNamed = QuickNameTable(quickNamed)
  }

  deinit {
    quickNamed.deallocate()
    bucketRefs.deallocate()
    keys.deallocate()
    plain.deallocate()
  }

  @inlinable @inline(__always)
  static func bits(of id: ObjectIdentifier) -> UInt {
    UInt(bitPattern: unsafeBitCast(id, to: Int.self))
  }

  @inlinable @inline(__always)
  static func index(of bits: UInt, shift: Int) -> Int {
    // Fibonacci hashing: the top bits of the product. Metatypes of one
    // module lie a fixed stride apart (88 bytes for the benchmark's 1,000
    // classes); bits 32 and up of the product, as before, made such keys
    // collide into runs of 11 probes on average, the top bits into none.
    Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) &>> UInt(truncatingIfNeeded: shift))
  }

  @inlinable @inline(__always)
  func slot(of id: ObjectIdentifier) -> Int? {
    let bits = Self.bits(of: id)
    var index = Self.index(of: bits, shift: shift)
    while true {
      let key = keys[index]
      if key == bits { return index }
      if key == 0 { return nil }
      index = (index &+ 1) & mask
    }
  }

  /// The registration serving unnamed, argument-free requests for the type.
  @inlinable @inline(__always)
  func plainRecord(for id: ObjectIdentifier) -> Unmanaged<RegistrationRecord>? {
    guard let index = slot(of: id) else { return nil }
    return plain[index]
  }

  /// The registration of the type under `name` taking no arguments, when
  /// `name` is held exactly as the registration's (see
  /// ``QuickNameTable``); `nil` says only "look further".
  @inlinable @inline(__always)
  func quickNamedRecord(for id: ObjectIdentifier, name: String) -> Unmanaged<RegistrationRecord>? {
    quickNamed.record(for: Self.bits(of: id), words: QuickNameTable.words(of: name))
  }

  /// The registration of the type under `name` taking no arguments,
  /// however `name` is held: in the quick table by the words of its inline
  /// form, or in the type's name table, or, for a name that is not ASCII,
  /// among the type's names that are canonically equivalent to it.
  func namedRecord(for id: ObjectIdentifier, name: String) -> Unmanaged<RegistrationRecord>? {
    if let words = QuickNameTable.canonicalWords(of: name),
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

  /// Every registration of one service type, under any name or arguments.
  func bucket(for id: ObjectIdentifier) -> TypeBucket? {
    guard let index = slot(of: id) else { return nil }
    return buckets[index]
  }
}

/// The registrations of one service type.
final class TypeBucket: @unchecked Sendable {
  // Never mutated after init.
  /// The registration with no name and no arguments, the common case (or
  /// the named one a profile selected for unnamed requests).
  let plain: RegistrationRecord?
  let all: [RegistrationRecord]
  /// The profile's choice of named registration for unnamed requests.
  let selection: ServiceSelection?
  private let named: NameTable
  /// The argument-free named registrations whose names are not ASCII: the
  /// only ones a name held in other bytes can be canonically equal to.
  private let nonASCIINamed: [RegistrationRecord]
  /// The registrations taking arguments, with their signatures.
  private let withArguments: ContiguousArray<(signature: UInt, record: Unmanaged<RegistrationRecord>)>

  /// `inQuickTable`: the named registrations the registry's
  /// ``QuickNameTable`` holds, left out of this type's ``NameTable``.
  init(_ records: [RegistrationRecord], selection: ServiceSelection?, inQuickTable: Set<ObjectIdentifier>) {
    self.all = records
    self.selection = selection
    let servesUnnamed = selection?.name
    self.plain = records.first { $0.key.name == servesUnnamed && $0.key.arguments.isEmpty }
    self.named = NameTable(
      records.filter {
        $0.key.name != nil && $0.key.arguments.isEmpty && !inQuickTable.contains(ObjectIdentifier($0))
      })
    self.nonASCIINamed = records.filter {
      $0.key.arguments.isEmpty && $0.key.name.map(Self.isNotASCII) == true
    }
    self.withArguments = ContiguousArray(
      records.filter { !$0.key.arguments.isEmpty }.map {
        (ArgumentSignature($0.key.arguments).value, Unmanaged.passUnretained($0))
      })
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

  /// The registration under `name` taking no arguments.
  @inline(__always)
  func record(named name: String) -> Unmanaged<RegistrationRecord>? {
    named.record(named: name)
  }

  /// Whether `name` has a byte above 0x7F: only then can another string
  /// be canonically equal to it with other bytes.
  static func isNotASCII(_ name: String) -> Bool {
    name.utf8.contains { $0 >= 0x80 }
  }

  /// The argument-free registration whose name is canonically equivalent
  /// to `name` but held in other bytes (see
  /// ``Registry/namedRecord(for:name:)``).
  func record(equivalentTo name: String) -> Unmanaged<RegistrationRecord>? {
    nonASCIINamed.first { $0.key.name == name }.map { Unmanaged.passUnretained($0) }
  }

  /// The registration under `name` whose arguments have these identities.
  func record(named name: String?, arguments: [ObjectIdentifier]) -> RegistrationRecord? {
    all.first { record in
      record.key.name == name
        && record.key.arguments.count == arguments.count
        && zip(record.key.arguments, arguments).allSatisfy { $0.id == $1 }
    }
  }

  /// Registrations under `name` with any arguments.
  func records(named name: String?) -> [RegistrationRecord] {
    all.filter { $0.key.name == name }
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
