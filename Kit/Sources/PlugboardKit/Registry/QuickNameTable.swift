import Synchronization

/// The named, argument-free registrations of a snapshot whose names fit
/// in a `String`'s two words, found by their type and those words: the
/// lookup `resolve` inlines for `resolve(Service.self, name: "literal")`.
///
/// A `String` of up to 15 UTF-8 bytes is stored inside its two words
/// (Swift's small strings), so a name written as a literal finds its
/// registration with one multiply and a few compares, where hashing and
/// comparing the name's bytes cost many times more. Equal words
/// are always equal strings, so a hit is always right. A miss means only
/// that the request's name is held another way: the snapshot then makes
/// the name's inline form (``canonicalWords(of:)``) and asks again, and
/// looks for longer names, and names that are not ASCII (which other bytes
/// can equal), in each type's ``NameTable``. Each name is in exactly one
/// of the two tables, so named registrations take no more memory than one
/// table did.
///
/// The table has spare capacity, and the container publishes a new named
/// registration by writing it into an empty slot (or over the one of the
/// same key) while readers look on: a slot's words are written before its
/// record, and never changed once it has one; the record is read and
/// written atomically.
struct QuickNameTable: @unchecked Sendable {
  /// One slot: the name's two words and its registration, whose type is
  /// compared through the record; an empty slot has a `nil` record.
  struct Slot: ~Copyable {
    var words: (UInt64, UInt64)
    let record: Atomic<Unmanaged<RegistrationRecord>?>
  }

  let mask: Int
  /// 64 minus the table's size in bits.
  let shift: Int
  let slots: UnsafeMutablePointer<Slot>

  /// The size of a table for `count` names: half full at most while
  /// small, for short probes; a large table (100,000 names) is filled to
  /// four fifths, for memory.
  static func capacity(for count: Int) -> Int {
    let wanted = count < 4_096 ? count * 2 : count + count / 4
    var capacity = 4
    while capacity < wanted { capacity <<= 1 }
    return capacity
  }

  /// An empty table with room for `count` names.
  init(roomFor count: Int) {
    let capacity = Self.capacity(for: count)
    let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
    for index in 0..<capacity {
      (slots + index).initialize(to: Slot(words: (0, 0), record: Atomic(nil)))
    }
    self.mask = capacity - 1
    self.shift = 64 - capacity.trailingZeroBitCount
    self.slots = slots
  }

  /// Frees the table; called once, by the owning ``Registry``.
  func deallocate() {
    slots.deallocate()
  }

  /// Serves `record`'s key with it: over the registration of the same key,
  /// or in an empty slot when the table, with `used` slots taken, has room
  /// for one more. Returns whether a slot was taken, or `nil` when there
  /// was no room. Called only by the container, under its lock.
  func insert(_ record: RegistrationRecord, words: (UInt64, UInt64), used: Int) -> Bool? {
    let type = Registry.bits(of: record.key.service.id)
    var index = Self.index(of: type, words, shift: shift)
    while let candidate = slots[index].record.load(ordering: .relaxed) {
      if slots[index].words == words
        && Registry.bits(of: candidate._withUnsafeGuaranteedRef { $0.key.service.id }) == type
      {
        slots[index].record.store(Unmanaged.passUnretained(record), ordering: .releasing)
        return false
      }
      index = (index &+ 1) & mask
    }
    guard Self.capacity(for: used + 1) <= mask + 1 else { return nil }
    slots[index].words = words
    slots[index].record.store(Unmanaged.passUnretained(record), ordering: .releasing)
    return true
  }

  /// The two words of a `String` value, as stored.
  @inline(__always)
  static func words(of name: String) -> (UInt64, UInt64) {
    unsafeBitCast(name, to: (UInt64, UInt64).self)
  }

  /// The words of `name` made anew from its bytes, when they hold the
  /// whole name by value (no storage elsewhere that could be freed and
  /// reused): two strings made from the same bytes then have equal words.
  ///
  /// `name` itself is usually held that way already (a literal, or a short
  /// interpolation): then one string made anew has its words, and no
  /// second one is needed to tell. The bytes are read in place, not
  /// copied into an array: a registry of many short names calls this for
  /// each of them.
  static func canonicalWords(of name: String) -> (UInt64, UInt64)? {
    guard name.utf8.count <= 15 else { return nil }
    var copy = name
    return copy.withUTF8 { bytes in
      let first = String(decoding: bytes, as: UTF8.self)
      let words = Self.words(of: first)
      // `name` was alive when `first` was made, so their words are equal
      // only when both hold the bytes themselves: new storage would have
      // another address.
      let own = Self.words(of: name)
      if words.0 == own.0 && words.1 == own.1 { return words }
      let second = String(decoding: bytes, as: UTF8.self)
      return withExtendedLifetime((first, second)) { words == Self.words(of: second) ? words : nil }
    }
  }

  @inline(__always)
  static func index(of type: UInt, _ words: (UInt64, UInt64), shift: Int) -> Int {
    let mixed =
      (type ^ UInt(truncatingIfNeeded: words.0 ^ (words.1 &* 0xC2B2_AE3D_27D4_EB4F)))
      &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: mixed &>> UInt(truncatingIfNeeded: shift))
  }

  /// The registration of the type whose name has these words; `nil` when
  /// there is none, which does not mean that no name equals it.
  @inline(__always)
  func record(for type: UInt, words: (UInt64, UInt64)) -> Unmanaged<RegistrationRecord>? {
    var index = Self.index(of: type, words, shift: shift)
    // Acquiring: the slot's words, and the record itself, were written
    // before the record was stored.
    while let candidate = slots[index].record.load(ordering: .acquiring) {
      if slots[index].words == words
        && Registry.bits(of: candidate._withUnsafeGuaranteedRef { $0.key.service.id }) == type
      {
        return candidate
      }
      index = (index &+ 1) & mask
    }
    return nil
  }
}
