#if canImport(Glibc)
  import Glibc
#endif

/// A set of texts compared by their bytes, for finding a repeated key or
/// an unknown name among hundreds of thousands: each text is hashed once,
/// with a word-at-a-time multiply hash, and compared only on a collision.
///
/// Used instead of `Set<String>` where every text is ASCII (so that byte
/// equality is `String` equality): a `String` per key and its SipHash cost
/// a 4 MiB manifest of 290,000 plugin names in a profile's `config` about
/// 150 instructions per name before it was compared (measured with
/// callgrind).
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
    return storage.withUnsafeBufferPointer { Self.same(UnsafeBufferPointer(rebasing: $0[range]), text) }
  }

  /// Byte equality by `memcmp`: `elementsEqual` went a byte at a time, a
  /// third of the set's time on a `config` of one key repeated a quarter
  /// of a million times, and far more unoptimised.
  static func same(_ one: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
    guard one.count == other.count else { return false }
    guard let first = one.baseAddress, let second = other.baseAddress else { return true }
    return memcmp(first, second, one.count) == 0
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

extension ByteTextSet {
  /// Past this many texts, ``repeats(count:text:)`` partitions them
  /// first; a caller that walks texts through one set switches to it past
  /// this many distinct ones.
  static let partitionThreshold = 4_096

  /// For each of `count` texts in order, whether it repeats an earlier
  /// one (by bytes): the members of a JSON object, say, where the later of
  /// two equal keys is the duplicate.
  ///
  /// Up to ``partitionThreshold`` texts go through one ``ByteTextSet``.
  /// Past it, one table for all of them misses the cache on nearly every
  /// insert: 290,000 names in a profile's `config` spent two
  /// thirds of the set's time waiting for its first slot, and a fifth more
  /// for the bytes a colliding slot pointed at. So the texts are hashed in
  /// order, sorted by the hash's top bits into partitions of about a
  /// thousand (a stable counting sort: each keeps document order), and
  /// each partition is searched with a small table that stays in the cache
  /// and holds the hashes, so bytes are compared only when whole hashes
  /// are equal.
  static func repeats(count: Int, text: (Int) -> UnsafeBufferPointer<UInt8>) -> [Bool] {
    guard count > partitionThreshold else {
      var repeated = [Bool](repeating: false, count: count)
      var seen = ByteTextSet(capacity: count)
      for index in 0..<count where !seen.insert(text(index)) { repeated[index] = true }
      return repeated
    }
    var repeated = [Bool](repeating: false, count: count)
    var bits = 1
    while count >> bits > 1_024, bits < 16 { bits += 1 }
    let shift = UInt64(64 - bits)
    var hashes = [UInt64](repeating: 0, count: count)
    for index in 0..<count { hashes[index] = hash(text(index)) }
    // Where each partition starts in `sorted`, then its texts, each as
    // one word: the low half of its hash above its number. One stream per
    // partition, not two (a number and a hash), halved the stores that
    // missed the cache; the top bits chose the partition, so the low half
    // is what tells texts of one partition apart.
    var starts = [Int](repeating: 0, count: (1 << bits) + 1)
    for hash in hashes { starts[Int(truncatingIfNeeded: hash >> shift) + 1] += 1 }
    for partition in 0..<(1 << bits) { starts[partition + 1] += starts[partition] }
    var next = starts
    var sorted = [UInt64](repeating: 0, count: count)
    sorted.withUnsafeMutableBufferPointer { sorted in
      next.withUnsafeMutableBufferPointer { next in
        for index in 0..<count {
          let hash = hashes[index]
          let partition = Int(truncatingIfNeeded: hash >> shift)
          sorted[next[partition]] = hash << 32 | UInt64(truncatingIfNeeded: index)
          next[partition] += 1
        }
      }
    }
    var table = HashedNumbers()
    for partition in 0..<(1 << bits) {
      table.removeAll()
      for position in starts[partition]..<starts[partition + 1] {
        let word = sorted[position]
        let index = Int(truncatingIfNeeded: word & 0xFFFF_FFFF)
        let equal = table.insert(index, hash: word >> 32) { earlier in
          same(text(earlier), text(index))
        }
        if equal { repeated[index] = true }
      }
    }
    return repeated
  }
}

/// Numbers by hash, with the hashes in the table: a probe compares a
/// number's text only when the whole hashes are equal. Grows as numbers
/// are inserted, so a partition of one text repeated a million times
/// keeps a table of sixteen slots.
private struct HashedNumbers {
  private var hashes = [UInt64](repeating: 0, count: 16)
  /// The number + 1; 0 for an empty slot. At most half full.
  private var numbers = [UInt32](repeating: 0, count: 16)
  private var count = 0

  mutating func removeAll() {
    guard count > 0 else { return }
    for slot in numbers.indices { numbers[slot] = 0 }
    count = 0
  }

  /// Inserts `number` unless a number of the same hash whose text is
  /// `equal` is in; true when one is.
  mutating func insert(_ number: Int, hash: UInt64, equal: (Int) -> Bool) -> Bool {
    if (count + 1) * 2 > numbers.count { grow() }
    let mask = numbers.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while numbers[slot] != 0 {
      if hashes[slot] == hash, equal(Int(numbers[slot]) - 1) { return true }
      slot = (slot + 1) & mask
    }
    hashes[slot] = hash
    numbers[slot] = UInt32(truncatingIfNeeded: number + 1)
    count += 1
    return false
  }

  private mutating func grow() {
    let size = numbers.count * 2
    var largerHashes = [UInt64](repeating: 0, count: size)
    var largerNumbers = [UInt32](repeating: 0, count: size)
    for slot in numbers.indices where numbers[slot] != 0 {
      var target = Int(truncatingIfNeeded: hashes[slot]) & (size - 1)
      while largerNumbers[target] != 0 { target = (target + 1) & (size - 1) }
      largerHashes[target] = hashes[slot]
      largerNumbers[target] = numbers[slot]
    }
    hashes = largerHashes
    numbers = largerNumbers
  }
}
