/// SHA-256 (FIPS 180-4), written here because the host may depend on the
/// toolchain alone. Streaming: feed bytes with ``update(_:)`` in pieces of
/// any size, then call ``finalize()`` once.
package struct SHA256: Sendable {
  /// A finished digest: 32 bytes.
  package struct Digest: Equatable, Hashable, Sendable, CustomStringConvertible {
    package let bytes: [UInt8]

    /// Lower-case hexadecimal, 64 digits: the form the manifest stores.
    package var hex: String {
      let digits = Array("0123456789abcdef".utf8)
      var text: [UInt8] = []
      text.reserveCapacity(bytes.count * 2)
      for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
      }
      return String(decoding: text, as: UTF8.self)
    }

    package var description: String { hex }
  }

  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
  )
  private var blocks = MessageBlocks(blockSize: 64, lengthSize: 8)

  package init() {}

  /// Adds `bytes` to the message.
  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    var state = self.state
    blocks.add(bytes) { Self.compress(&state, $0, at: $1) }
    self.state = state
  }

  /// Adds `bytes` to the message.
  package mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// The digest of everything added; the value is not meant to be updated
  /// afterwards.
  package mutating func finalize() -> Digest {
    var state = self.state
    blocks.finish { Self.compress(&state, $0, at: $1) }
    self.state = state
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32)
    for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
      bytes += [
        UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8),
        UInt8(truncatingIfNeeded: word),
      ]
    }
    return Digest(bytes: bytes)
  }

  /// The digest of `bytes` in one call.
  package static func hash(_ bytes: [UInt8]) -> Digest {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// One 64-byte block starting at `offset` of `block`.
  private static func compress(
    _ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
    _ block: UnsafeRawBufferPointer,
    at offset: Int
  ) {
    var w = (
      UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0),
      UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0)
    )
    withUnsafeMutableBytes(of: &w) { raw in
      let schedule = raw.bindMemory(to: UInt32.self)
      for index in 0..<16 {
        let base = offset + index * 4
        schedule[index] =
          UInt32(block[base]) << 24 | UInt32(block[base + 1]) << 16 | UInt32(block[base + 2]) << 8
          | UInt32(block[base + 3])
      }
      var (a, b, c, d, e, f, g, h) = state
      Self.roundConstants.withUnsafeBufferPointer { constants in
        for round in 0..<64 {
          let word: UInt32
          if round < 16 {
            word = schedule[round]
          } else {
            let early = schedule[(round - 15) & 15]
            let late = schedule[(round - 2) & 15]
            let s0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early >> 3)
            let s1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late >> 10)
            word = schedule[round & 15] &+ s0 &+ schedule[(round - 7) & 15] &+ s1
            schedule[round & 15] = word
          }
          let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
          let choice = (e & f) ^ (~e & g)
          let temp1 = h &+ sum1 &+ choice &+ constants[round] &+ word
          let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
          let majority = (a & b) ^ (a & c) ^ (b & c)
          let temp2 = sum0 &+ majority
          h = g
          g = f
          f = e
          e = d &+ temp1
          d = c
          c = b
          b = a
          a = temp1 &+ temp2
        }
      }
      state = (
        state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
        state.7 &+ h
      )
    }
  }
}

extension UInt32 {
  fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
    (self >> count) | (self << (32 - count))
  }
}
