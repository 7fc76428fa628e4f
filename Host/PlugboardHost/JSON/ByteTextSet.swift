/// A set of texts compared by their bytes, for finding a repeated key or
/// an unknown name among hundreds of thousands: each text is hashed once,
/// with a word-at-a-time multiply hash, and compared only on a collision.
///
/// Used instead of `Set<String>` where every text is ASCII (so that byte
/// equality is `String` equality): a `String` per key and its SipHash cost
/// a 4 MiB manifest of 290,000 plugin names in a profile's `config` about
/// 150 instructions per name before it was compared (callgrind, issue 21).
/// The hash is seeded at random once per process, so a manifest cannot be
/// written to make its keys collide.
struct ByteTextSet {
  /// The texts, one after the other, and where each ends.
  private var storage: [UInt8] = []
  private var ends: [Int] = []
  /// Per slot, the text's number + 1; 0 for an empty slot. Never more
  /// than half full, so a probe ends soon.
  private var slots: [UInt32]
  private var mask: Int

  init(capacity: Int) {
    var size = 16
    while size < capacity * 2, size < Int(UInt32.max) { size <<= 1 }
    slots = Array(repeating: 0, count: size)
    mask = size - 1
    ends.reserveCapacity(capacity)
  }

  var count: Int { ends.count }

  /// Adds `text`; false when an equal text is already in.
  mutating func insert(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    if (ends.count + 1) * 2 > slots.count { grow() }
    var slot = Int(truncatingIfNeeded: Self.hash(text)) & mask
    while true {
      let held = Int(slots[slot])
      if held == 0 {
        storage.append(contentsOf: text)
        ends.append(storage.count)
        slots[slot] = UInt32(truncatingIfNeeded: ends.count)
        return true
      }
      if holds(held - 1, text) { return false }
      slot = (slot + 1) & mask
    }
  }

  func contains(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    var slot = Int(truncatingIfNeeded: Self.hash(text)) & mask
    while true {
      let held = Int(slots[slot])
      if held == 0 { return false }
      if holds(held - 1, text) { return true }
      slot = (slot + 1) & mask
    }
  }

  private func bounds(_ number: Int) -> Range<Int> {
    (number == 0 ? 0 : ends[number - 1])..<ends[number]
  }

  private func holds(_ number: Int, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
    let range = bounds(number)
    guard range.count == text.count else { return false }
    return storage.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[range]).elementsEqual(text) }
  }

  private mutating func grow() {
    let size = slots.count * 2
    var larger = [UInt32](repeating: 0, count: size)
    let mask = size - 1
    storage.withUnsafeBufferPointer { buffer in
      for number in ends.indices {
        let range = bounds(number)
        var slot = Int(truncatingIfNeeded: Self.hash(UnsafeBufferPointer(rebasing: buffer[range]))) & mask
        while larger[slot] != 0 { slot = (slot + 1) & mask }
        larger[slot] = UInt32(truncatingIfNeeded: number + 1)
      }
    }
    slots = larger
    self.mask = mask
  }

  /// Two random words, drawn once per process.
  private static let seed = (UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))

  /// Eight bytes at a time, each word folded into the state by a 128-bit
  /// multiply whose halves are xored (as wyhash does), so that every bit
  /// of both factors reaches the low bits a slot is chosen by; the seed is
  /// in both factors, so that no word an input can choose without knowing
  /// it zeroes one. (A first version multiplied by the length alone, and
  /// 30,000 names `p0`…`p29999` fell into a few slots: quadratic.)
  static func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let (first, second) = seed
    var state = first ^ (UInt64(truncatingIfNeeded: text.count) &* 0x9E37_79B9_7F4A_7C15)
    guard let base = text.baseAddress else { return mix(state, second ^ 0xE703_7ED1_A0B4_28DB) }
    var position = 0
    while position + 8 <= text.count {
      let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
      state = mix(word ^ second, state ^ 0xA076_1D64_78BD_642F)
      position += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while position < text.count {
      tail |= UInt64(base[position]) << shift
      shift += 8
      position += 1
    }
    return mix(tail ^ second ^ 0xE703_7ED1_A0B4_28DB, state ^ 0xA076_1D64_78BD_642F)
  }

  private static func mix(_ one: UInt64, _ other: UInt64) -> UInt64 {
    let product = one.multipliedFullWidth(by: other)
    return product.high ^ product.low
  }
}
