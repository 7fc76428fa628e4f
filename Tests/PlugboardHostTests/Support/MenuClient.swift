import Foundation
import PlugboardTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A listening TCP socket on 127.0.0.1 (a port the kernel picks), made by
/// the test as systemd's socket activation makes one, and handed to
/// plugboard as its only activation socket.
enum ActivationSocket {
  /// Starts `plugboard` with `arguments` as a `.socket` unit's service is
  /// started: a new listening socket at descriptor 3, `LISTEN_FDS=1` and
  /// `LISTEN_PID` naming plugboard's own process (a shell's, which then
  /// `exec`s it). The test keeps no copy: the socket lives as long as
  /// plugboard keeps it, and once it ended a connection is refused or
  /// reset, not left waiting.
  static func start(_ arguments: [String]) throws -> (process: GroupedProcess, port: UInt16) {
    let (listening, port) = try listeningSocket()
    defer { close(listening) }
    let script = #"LISTEN_PID=$$ LISTEN_FDS=1 exec "$0" "$@""#
    let process = try GroupedProcess(
      ["-c", script, BuildProducts.plugboard] + arguments, executable: "/bin/sh", passing: [listening])
    return (process, port)
  }

  /// A TCP socket listening on 127.0.0.1 (close-on-exec), at a port the
  /// kernel picked, and that port.
  static func listeningSocket() throws -> (socket: Int32, port: UInt16) {
    let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard listening >= 0 else { throw MenuClient.Failure("socket", errno) }
    var address = MenuClient.loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listening, $0, length) == 0 && listen(listening, SOMAXCONN) == 0
          && getsockname(listening, $0, &length) == 0
      }
    }
    guard bound else {
      let error = errno
      close(listening)
      throw MenuClient.Failure("bind and listen on 127.0.0.1", error)
    }
    return (listening, UInt16(bigEndian: address.sin_port))
  }
}

/// How a test hands the serving sample its socket: as a `.socket` unit
/// does (``ActivationSocket``), or by `plugboard run --listen`, where the
/// supervising process opens it.
enum SocketSource: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case activation
  case listenOption

  var testDescription: String { rawValue }

  /// Starts `plugboard run` with `arguments` (after `run`) serving on a
  /// port the kernel picks; the process and the port.
  func start(run arguments: [String]) throws -> (process: GroupedProcess, port: UInt16) {
    switch self {
    case .activation: return try ActivationSocket.start(["run"] + arguments)
    case .listenOption:
      let process = try GroupedProcess(["run", "--listen", "127.0.0.1:0"] + arguments)
      let prefix = "plugboard: run: listening on 127.0.0.1:"
      let line = try process.waitForLine(onStderr: true) { $0.hasPrefix(prefix) }
      guard let port = line.flatMap({ UInt16($0.dropFirst(prefix.count).prefix { $0.isNumber }) }) else {
        throw MenuClient.Failure("no port announced: \(process.stderrText)")
      }
      return (process, port)
    }
  }
}

/// A client of the serving sample (`plugboard run -- --serve`): connects,
/// sends lines, reads the answer lines, and counts the connections refused
/// and reset, which a deployment that serves throughout must never cause.
///
/// Every wait is bounded by ``GroupedProcess/limit``, a bound on a hang,
/// not a time the server is expected to meet.
final class MenuClient {
  let port: UInt16
  private var socket: Int32 = -1
  private var received: [UInt8] = []
  /// Connections refused (nothing accepting, not even a backlog).
  private(set) var refused = 0
  /// Connections reset, or closed before their answer.
  private(set) var reset = 0

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ call: String, _ error: Int32) { description = "\(call): \(String(cString: strerror(error)))" }
    init(_ description: String) { self.description = description }
  }

  init(port: UInt16) { self.port = port }

  deinit { disconnect() }

  static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
    return address
  }

  /// Opens a connection (closing the one open); false, counted, when it
  /// was refused.
  func connect() throws -> Bool {
    disconnect()
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { throw Failure("socket", errno) }
    var address = Self.loopback(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let error = errno
      disconnect()
      guard error == ECONNREFUSED else { throw Failure("connect to 127.0.0.1:\(port)", error) }
      refused += 1
      return false
    }
    return true
  }

  func disconnect() {
    if socket >= 0 { close(socket) }
    socket = -1
    received = []
  }

  /// Sends `text` as it is (a line needs its "\n"); false, counted, when
  /// the connection was reset.
  func send(_ text: String) throws -> Bool {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent < 0 && errno == EINTR { continue }
      guard sent > 0 else {
        guard errno == ECONNRESET || errno == EPIPE else { throw Failure("send", errno) }
        reset += 1
        return false
      }
      offset += sent
    }
    return true
  }

  /// The next line the server sends, without its "\n"; nil when the
  /// connection ended first (counted as reset when it was reset).
  func readLine() throws -> String? {
    Blocking.requireBlockingThread("Waiting for the server's answer")
    while true {
      if let end = received.firstIndex(of: 10) {
        let line = String(decoding: received[..<end], as: UTF8.self)
        received.removeSubrange(...end)
        return line
      }
      var watched = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      let ready = poll(&watched, 1, Int32(GroupedProcess.limit.components.seconds * 1000))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { throw Failure("no answer came within \(GroupedProcess.limit)") }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count < 0 && errno == EINTR { continue }
      if count < 0 && errno != ECONNRESET { throw Failure("recv", errno) }
      if count <= 0 {
        if count < 0 { reset += 1 }
        return nil
      }
      received += buffer[..<count]
    }
  }

  /// Whether the server closed the connection with nothing more sent.
  func isClosed() throws -> Bool {
    try readLine() == nil
  }

  /// One request on a connection of its own: connects, sends `request`,
  /// reads the answer and closes. The answer, or nil when the connection
  /// was refused, reset or closed before it (counted: closed without an
  /// answer counts as reset, a request lost all the same).
  func ask(_ request: String) throws -> String? {
    defer { disconnect() }
    guard try connect(), try send(request + "\n") else { return nil }
    let resets = reset
    let answer = try readLine()
    if answer == nil && reset == resets { reset += 1 }
    return answer
  }
}
