/// The framing SHA-256 and SHA-512 share (FIPS 180-4 §5.1): the message
/// cut into whole blocks as bytes arrive in pieces of any size, and the
/// padding that ends it, a one bit, zeros, and the message's length in
/// bits, big-endian, in the last `lengthSize` bytes.
struct MessageBlocks: Sendable {
  private let blockSize: Int
  private let lengthSize: Int
  /// Bytes waiting for a whole block.
  private var pending: [UInt8] = []
  private var length: UInt64 = 0

  init(blockSize: Int, lengthSize: Int) {
    self.blockSize = blockSize
    self.lengthSize = lengthSize
    pending.reserveCapacity(blockSize)
  }

  /// Adds `bytes`, handing `compress` each block completed: a buffer and the
  /// block's offset in it.
  mutating func add(_ bytes: UnsafeRawBufferPointer, _ compress: (UnsafeRawBufferPointer, Int) -> Void) {
    length &+= UInt64(bytes.count)
    var offset = 0
    if !pending.isEmpty {
      let taken = min(blockSize - pending.count, bytes.count)
      pending.append(contentsOf: bytes[0..<taken])
      offset = taken
      guard pending.count == blockSize else { return }
      pending.withUnsafeBytes { compress($0, 0) }
      pending.removeAll(keepingCapacity: true)
    }
    while bytes.count - offset >= blockSize {
      compress(bytes, offset)
      offset += blockSize
    }
    pending.append(contentsOf: bytes[offset...])
  }

  /// Ends the message: hands `compress` the padded last blocks. Messages
  /// here are far below 2^61 bytes, so a length field wider than 8 bytes
  /// starts with zeros.
  mutating func finish(_ compress: (UnsafeRawBufferPointer, Int) -> Void) {
    let bits = length &* 8
    var tail = pending
    tail.append(0x80)
    while tail.count % blockSize != blockSize - lengthSize { tail.append(0) }
    tail += [UInt8](repeating: 0, count: lengthSize - 8)
    for shift in stride(from: 56, through: 0, by: -8) {
      tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
    }
    tail.withUnsafeBytes { block in
      for offset in stride(from: 0, to: block.count, by: blockSize) { compress(block, offset) }
    }
    pending.removeAll()
  }
}
