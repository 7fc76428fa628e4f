#if canImport(Glibc)
  import Glibc
#endif

/// The sockets the serving sample accepts on: those systemd's socket
/// activation passed (a `.socket` unit, `systemd-socket-activate`), else
/// one it binds itself on the loopback interface.
enum ListeningSockets {
  /// Why there is nothing to serve on.
  enum Failure: Error, CustomStringConvertible {
    case none
    case notListening(Int32)
    case call(String, Int32)

    var description: String {
      switch self {
      case .none:
        "no socket to serve on: start it with socket activation (a systemd .socket unit, or "
          + "systemd-socket-activate -l 7070 plugboard run -- --serve), or pass --port PORT"
      case .notListening(let descriptor):
        "descriptor \(descriptor), passed by socket activation (LISTEN_FDS), is not a listening socket"
      case .call(let call, let error): "\(call): \(String(cString: strerror(error)))"
      }
    }
  }

  /// Socket activation's sockets, or, without them, one bound to
  /// 127.0.0.1:`port`; each non-blocking, so that a connection another
  /// process accepted first leaves `accept` empty-handed, not blocked.
  static func open(port: UInt16?) throws(Failure) -> [Int32] {
    var sockets = try inherited()
    if sockets.isEmpty {
      guard let port else { throw .none }
      sockets = [try loopback(port: port)]
    }
    for socket in sockets {
      // The flag is the open socket's, shared with every process that
      // holds it; each process that accepts on it wants it.
      let flags = fcntl(socket, F_GETFL)
      guard flags >= 0, fcntl(socket, F_SETFL, flags | O_NONBLOCK) == 0 else { throw .call("fcntl", errno) }
    }
    return sockets
  }

  /// `LISTEN_FDS` descriptors from 3, when `LISTEN_PID` names this process
  /// (as `sd_listen_fds` checks: the variables may have been meant for a
  /// parent), each checked to be a listening socket.
  static func inherited() throws(Failure) -> [Int32] {
    guard let owner = variable("LISTEN_PID").flatMap({ Int32($0) }), owner == getpid(),
      let count = variable("LISTEN_FDS").flatMap({ Int32($0) }), count > 0
    else { return [] }
    let sockets = Array(3..<(3 + count))
    for socket in sockets {
      var listening: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      guard getsockopt(socket, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening != 0 else {
        throw .notListening(socket)
      }
    }
    return sockets
  }

  /// A TCP socket listening on 127.0.0.1:`port`.
  static func loopback(port: UInt16) throws(Failure) -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { throw .call("socket", errno) }
    var reuse: Int32 = 1
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(socket, SOMAXCONN) == 0 else {
      let error = errno
      close(socket)
      throw .call("listen on 127.0.0.1:\(port)", error)
    }
    return socket
  }

  private static func variable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
