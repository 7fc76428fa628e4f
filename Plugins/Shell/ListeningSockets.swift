#if canImport(Glibc)
  import Glibc
#endif

/// The sockets the serving sample accepts on: those passed as systemd's
/// socket activation passes them (a `.socket` unit,
/// `systemd-socket-activate`, or `plugboard run --listen`).
///
/// It binds no port of its own: the supervising process holds these
/// sockets and hands them to every child, so that the new child of a
/// reload accepts on the same port while the old one drains. A port the
/// application bound itself would still be the old child's.
enum ListeningSockets {
  /// Why there is nothing to serve on.
  enum Failure: Error, CustomStringConvertible {
    case none
    case notListening(Int32)
    case call(String, Int32)

    var description: String {
      switch self {
      case .none:
        "no socket to serve on: start it with plugboard run --listen 7070 -- --serve, or with socket "
          + "activation (a systemd .socket unit, or systemd-socket-activate -l 7070 plugboard run -- --serve)"
      case .notListening(let descriptor):
        "descriptor \(descriptor), passed by socket activation (LISTEN_FDS), is not a listening socket"
      case .call(let call, let error): "\(call): \(String(cString: strerror(error)))"
      }
    }
  }

  /// The sockets passed, each made non-blocking, so that a connection
  /// another process accepted first leaves `accept` empty-handed, not
  /// blocked.
  static func open() throws(Failure) -> [Int32] {
    let sockets = try inherited()
    guard !sockets.isEmpty else { throw .none }
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

  private static func variable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
