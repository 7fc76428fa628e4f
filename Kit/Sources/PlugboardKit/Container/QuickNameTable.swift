/// Every named, argument-free registration of a snapshot, found by its
/// type and the two words that hold its name: the lookup `resolve` inlines
/// for `resolve(Service.self, name: "literal")`.
///
/// A `String` of up to 15 UTF-8 bytes is stored inside its two words
/// (Swift's small strings), so a name written as a literal finds its
/// registration with one multiply and three compares, where hashing and
/// comparing the name's bytes cost about 180 instructions. Equal words are
/// always equal strings, so a hit is always right; a miss (a longer name,
/// or one whose storage is out of line) says only that the full lookup by
/// the name's bytes (``NameTable``) must decide.
@usableFromInline
struct QuickNameTable: @unchecked Sendable {
  /// One slot's key: the type's identity and the name's two words; an
  /// empty slot has a `nil` record.
  @usableFromInline
  struct Key: Equatable {
    @usableFromInline let type: UInt
    @usableFromInline let words: (UInt64, UInt64)

    @inlinable @inline(__always)
    init(type: UInt, words: (UInt64, UInt64)) {
      self.type = type
      self.words = words
    }

    @inlinable @inline(__always)
    static func == (lhs: Key, rhs: Key) -> Bool {
      lhs.type == rhs.type && lhs.words == rhs.words
    }
  }

  @usableFromInline let mask: Int
  /// 64 minus the table's size in bits.
  @usableFromInline let shift: Int
  @usableFromInline let keys: UnsafeMutablePointer<Key>
  @usableFromInline let records: UnsafeMutablePointer<Unmanaged<RegistrationRecord>?>
  /// The names whose words `keys` holds: a name stored out of line is
  /// matched by its storage's address, which must not be reused while
  /// the table lives.
  private let names: [String]

  init(_ named: [RegistrationRecord]) {
    var capacity = 4
    while capacity < named.count * 2 { capacity <<= 1 }
    let shift = 64 - capacity.trailingZeroBitCount
    let mask = capacity - 1
    let keys = UnsafeMutablePointer<Key>.allocate(capacity: capacity)
    keys.initialize(repeating: Key(type: 0, words: (0, 0)), count: capacity)
    let records = UnsafeMutablePointer<Unmanaged<RegistrationRecord>?>.allocate(capacity: capacity)
    records.initialize(repeating: nil, count: capacity)
    var names: [String] = []
    names.reserveCapacity(named.count)
    for record in named {
      guard let name = record.key.name else { continue }
      // Re-made from its bytes, so that a short name has the inline form
      // a literal has. A snapshot holds one registration per key.
      let canonical = String(decoding: Array(name.utf8), as: UTF8.self)
      let key = Key(type: Registry.bits(of: record.key.service.id), words: Self.words(of: canonical))
      var index = Self.index(of: key, shift: shift)
      while records[index] != nil && keys[index] != key { index = (index &+ 1) & mask }
      guard records[index] == nil else { continue }
      keys[index] = key
      records[index] = Unmanaged.passUnretained(record)
      names.append(canonical)
    }
    self.mask = mask
    self.shift = shift
    self.keys = keys
    self.records = records
    self.names = names
  }

  /// Frees the table; called once, by the owning ``Registry``.
  func deallocate() {
    keys.deallocate()
    records.deallocate()
  }

  /// The two words of a `String` value, as stored.
  @inlinable @inline(__always)
  static func words(of name: String) -> (UInt64, UInt64) {
    unsafeBitCast(name, to: (UInt64, UInt64).self)
  }

  @inlinable @inline(__always)
  static func index(of key: Key, shift: Int) -> Int {
    let mixed =
      (key.type ^ UInt(truncatingIfNeeded: key.words.0 ^ (key.words.1 &* 0xC2B2_AE3D_27D4_EB4F)))
      &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: mixed &>> UInt(truncatingIfNeeded: shift))
  }

  /// The registration of the type whose name is held in the same two
  /// words as `name`; `nil` when there is none, which does not mean that
  /// no registration's name equals it.
  @inlinable @inline(__always)
  func record(for type: UInt, name: String) -> Unmanaged<RegistrationRecord>? {
    let key = Key(type: type, words: Self.words(of: name))
    var index = Self.index(of: key, shift: shift)
    while let candidate = records[index] {
      if keys[index] == key { return candidate }
      index = (index &+ 1) & mask
    }
    return nil
  }
}
