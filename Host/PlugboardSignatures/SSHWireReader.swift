/// Reads the SSH wire encoding (RFC 4251 §5): big-endian `uint32`s and
/// `string`s prefixed by their `uint32` length. Every read checks the
/// length against what is left, so a hostile length costs nothing.
struct SSHWireReader {
  private let bytes: [UInt8]
  private var offset = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  var isAtEnd: Bool { offset == bytes.count }

  /// Why a blob does not read.
  enum Failure: Error, Equatable {
    case truncated
  }

  mutating func fixed(_ count: Int) throws(Failure) -> [UInt8] {
    guard count >= 0, bytes.count - offset >= count else { throw .truncated }
    defer { offset += count }
    return Array(bytes[offset..<offset + count])
  }

  mutating func uint32() throws(Failure) -> UInt32 {
    let four = try fixed(4)
    return four.reduce(0) { $0 << 8 | UInt32($1) }
  }

  mutating func string() throws(Failure) -> [UInt8] {
    let length = try uint32()
    guard UInt64(length) <= UInt64(bytes.count - offset) else { throw .truncated }
    return try fixed(Int(length))
  }
}

/// Writes the SSH wire encoding: what SSHSIG signs is built this way.
struct SSHWireWriter {
  private(set) var bytes: [UInt8] = []

  mutating func raw(_ data: [UInt8]) { bytes += data }

  mutating func uint32(_ value: UInt32) {
    bytes += [
      UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
      UInt8(truncatingIfNeeded: value),
    ]
  }

  mutating func string(_ data: [UInt8]) {
    uint32(UInt32(data.count))
    bytes += data
  }
}
