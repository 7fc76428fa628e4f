import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A fake systemd `NOTIFY_SOCKET`: an AF_UNIX datagram socket bound in a
/// temporary folder (or, for `abstract`, in the abstract namespace), which
/// the test reads the way systemd would, one datagram per message.
final class NotifySocket {
  private let folder: TemporaryDirectory
  private let descriptor: Int32
  /// The value for `NOTIFY_SOCKET`: a path, or `@name`.
  let address: String

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  init(abstract: Bool = false) throws {
    folder = try TemporaryDirectory()
    address = abstract ? "@plugboard-tests-\(UUID().uuidString)" : folder.path + "/notify"
    descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
    var local = sockaddr_un()
    local.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(address.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: local.sun_path) else {
      close(descriptor)
      throw Failure(description: "address too long: \(address)")
    }
    withUnsafeMutableBytes(of: &local.sun_path) { path in
      path.copyBytes(from: bytes)
      // '@' stands for the abstract namespace's leading NUL.
      if abstract { path[0] = 0 }
    }
    // sun_path follows sun_family directly.
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw Failure(description: "bind \(address): \(reason)")
    }
  }

  deinit { close(descriptor) }

  /// The next datagram, waiting up to `timeout` for it; nil if none came.
  func next(timeout: Duration = .seconds(30)) -> String? {
    var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(
      timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    while true {
      let ready = poll(&watched, 1, milliseconds)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return nil }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      guard count >= 0 else { return nil }
      return String(decoding: buffer[..<count], as: UTF8.self)
    }
  }

  /// Datagrams until one satisfies `done` (included), each waited for up
  /// to `timeout`; what came so far when one did not come.
  func messages(until done: (String) -> Bool, timeout: Duration = .seconds(30)) -> [String] {
    var received: [String] = []
    while let message = next(timeout: timeout) {
      received.append(message)
      if done(message) { break }
    }
    return received
  }
}
