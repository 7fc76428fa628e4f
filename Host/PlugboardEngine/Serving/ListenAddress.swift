#if canImport(Glibc)
  import Glibc
#endif

/// Where `plugboard run --listen` listens: `[ADDRESS:]PORT`, as a
/// `.socket` unit's `ListenStream=` names a TCP socket.
///
/// ```text
/// 7070              127.0.0.1, port 7070 (the loopback interface only)
/// 0.0.0.0:7070      every IPv4 interface
/// [::1]:7070        IPv6 loopback
/// 127.0.0.1:0       a port the kernel picks (plugboard prints which)
/// ```
///
/// A bare port listens on the loopback interface, not on every interface:
/// exposing a service to the network is written out.
package struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
  /// The address, in network byte order.
  enum Host: Sendable, Equatable {
    case v4(UInt32)
    case v6([UInt8])
  }

  let host: Host
  package let port: UInt16

  /// The forms accepted, for messages.
  package static let forms = "[ADDRESS:]PORT, as 7070, 127.0.0.1:7070 or [::1]:7070"

  /// Longer than any address and port: what is longer is not read.
  private static let longest = 64

  /// `text` read as `[ADDRESS:]PORT`; nil when it is not one.
  package static func parse(_ text: String) -> ListenAddress? {
    guard text.utf8.count <= longest else { return nil }
    guard let colon = text.lastIndex(of: ":") else {
      return portNumber(text[...]).map { ListenAddress(host: .v4(loopback), port: $0) }
    }
    guard let port = portNumber(text[text.index(after: colon)...]) else { return nil }
    let written = text[..<colon]
    if written.hasPrefix("["), written.hasSuffix("]") {
      var address = in6_addr()
      guard inet_pton(AF_INET6, String(written.dropFirst().dropLast()), &address) == 1 else { return nil }
      return ListenAddress(host: .v6(withUnsafeBytes(of: address) { Array($0) }), port: port)
    }
    var address = in_addr()
    guard inet_pton(AF_INET, String(written), &address) == 1 else { return nil }
    return ListenAddress(host: .v4(address.s_addr), port: port)
  }

  /// 127.0.0.1, in network byte order.
  private static let loopback = UInt32(0x7f00_0001).bigEndian

  /// A port number: 1 to 5 digits, at most 65535.
  private static func portNumber(_ text: Substring) -> UInt16? {
    guard (1...5).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
      return nil
    }
    return UInt16(text)
  }

  /// The same address with `port` (the one the kernel picked for port 0).
  func with(port: UInt16) -> ListenAddress { ListenAddress(host: host, port: port) }

  /// `AF_INET` or `AF_INET6`.
  var family: Int32 {
    switch host {
    case .v4: AF_INET
    case .v6: AF_INET6
    }
  }

  /// The address as `bind` takes it.
  var socketAddress: sockaddr_storage {
    var storage = sockaddr_storage()
    withUnsafeMutableBytes(of: &storage) { bytes in
      switch host {
      case .v4(let address):
        var inet = sockaddr_in()
        inet.sin_family = sa_family_t(AF_INET)
        inet.sin_port = port.bigEndian
        inet.sin_addr = in_addr(s_addr: address)
        withUnsafeBytes(of: inet) { bytes.copyMemory(from: $0) }
      case .v6(let address):
        var inet6 = sockaddr_in6()
        inet6.sin6_family = sa_family_t(AF_INET6)
        inet6.sin6_port = port.bigEndian
        withUnsafeMutableBytes(of: &inet6.sin6_addr) { $0.copyBytes(from: address) }
        withUnsafeBytes(of: inet6) { bytes.copyMemory(from: $0) }
      }
    }
    return storage
  }

  /// The length of ``socketAddress`` for its family.
  var socketAddressLength: socklen_t {
    socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
  }

  /// The port of a bound IPv4 or IPv6 address (both keep it at the same
  /// place, right after the family).
  static func port(of storage: sockaddr_storage) -> UInt16 {
    withUnsafeBytes(of: storage) { UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self)) }
  }

  /// `127.0.0.1:7070`, `[::1]:7070`.
  package var description: String {
    switch host {
    case .v4(let address):
      return withUnsafeBytes(of: address) { "\(Self.text(of: $0, family: AF_INET)):\(port)" }
    case .v6(let bytes):
      return bytes.withUnsafeBytes { "[\(Self.text(of: $0, family: AF_INET6))]:\(port)" }
    }
  }

  private static func text(of bytes: UnsafeRawBufferPointer, family: Int32) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
      guard let base = buffer.baseAddress,
        inet_ntop(family, bytes.baseAddress, base, socklen_t(buffer.count)) != nil
      else { return "?" }
      return String(cString: base)
    }
  }

}
