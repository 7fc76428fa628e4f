import PlugboardLaunch

#if canImport(Glibc)
  import Glibc
#endif

/// The socket `plugboard run --listen` opens in the process the service
/// manager started, before any child is forked, and passes on exactly as
/// systemd's socket activation passes its sockets: at descriptor 3, with
/// `LISTEN_FDS=1` and `LISTEN_PID` naming this process. From there on it is
/// socket activation's socket: the supervising parent holds it for as long
/// as it runs and hands it to every child it starts, so a reload brings the
/// new deployment up accepting on the same port while the old one drains,
/// and a connection made while no child accepts waits in the backlog.
///
/// An application that binds its own port cannot do that: the new child of
/// a reload finds the port taken by the old one.
///
/// ```swift
/// // In main, after the command line is parsed, before supervising:
/// switch ListeningSocket.open(address) {
/// case .success(let bound): print("listening on \(bound)")  // port 0: the port picked
/// case .failure(let failure): print(failure)
/// }
/// ```
package enum ListeningSocket {
  /// Why the socket was not opened.
  package enum Failure: Error, Equatable, CustomStringConvertible {
    /// Socket activation passed sockets already (`count` of them).
    case activated(count: Int32)
    /// `call` failed with `error` for `address`.
    case call(String, error: Int32, address: ListenAddress)
    /// Descriptor 3, where socket activation's first socket goes, holds
    /// something else.
    case descriptorTaken

    package var description: String {
      switch self {
      case .activated(let count):
        return "--listen cannot be combined with socket activation, which passed \(count) "
          + "socket\(count == 1 ? "" : "s") already (LISTEN_FDS): listen in the .socket unit instead"
      case .call(let call, let error, let address):
        let reason = String(cString: strerror(error))
        let hint =
          switch error {
          case EADDRINUSE:
            " — another process listens there (ss -ltnp 'sport = :\(address.port)' names it); stop it, or "
              + "choose another port"
          case EACCES: " — ports below 1024 need root or CAP_NET_BIND_SERVICE; choose a port above 1023"
          case EADDRNOTAVAIL: " — no interface of this machine has that address"
          default: ""
          }
        return "cannot listen on \(address): \(call): \(reason)\(hint)"
      case .descriptorTaken:
        return "cannot listen: descriptor 3, where a listening socket is passed on, is in use"
      }
    }
  }

  /// A TCP socket listening on `address`, placed at descriptor 3 and
  /// announced in the environment as socket activation's; returns the
  /// address bound (with the port the kernel picked, for port 0).
  package static func open(_ address: ListenAddress) -> Result<ListenAddress, Failure> {
    let passed = plugboard_listen_fds_for(getpid())
    guard passed == 0 else { return .failure(.activated(count: passed)) }
    let family = address.family
    let opened = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard opened >= 0 else { return .failure(.call("socket", error: errno, address: address)) }
    var reuse: Int32 = 1
    // A restarted service binds while its previous connections linger in
    // TIME_WAIT.
    setsockopt(opened, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var storage = address.socketAddress
    var length = address.socketAddressLength
    let failed = withUnsafeMutableBytes(of: &storage) { bytes -> String? in
      guard let generic = bytes.baseAddress?.assumingMemoryBound(to: sockaddr.self) else { return "bind" }
      guard bind(opened, generic, length) == 0 else { return "bind" }
      guard Glibc.listen(opened, SOMAXCONN) == 0 else { return "listen" }
      guard getsockname(opened, generic, &length) == 0 else { return "getsockname" }
      return nil
    }
    if let call = failed {
      let error = errno
      close(opened)
      return .failure(.call(call, error: error, address: address))
    }
    guard place(opened) else { return .failure(.descriptorTaken) }
    setenv("LISTEN_FDS", "1", 1)
    setenv("LISTEN_PID", "\(getpid())", 1)
    unsetenv("LISTEN_FDNAMES")
    return .success(address.with(port: ListenAddress.port(of: storage)))
  }

  /// Puts the socket `opened` at descriptor 3 (it is there already when
  /// the lowest free one was 3), without close-on-exec: every child is
  /// handed it, as systemd hands its sockets to the service. False, the
  /// socket closed, when 3 holds something else.
  private static func place(_ opened: Int32) -> Bool {
    if opened == 3 { return fcntl(opened, F_SETFD, 0) == 0 }
    let placed = fcntl(opened, F_DUPFD, 3)
    close(opened)
    guard placed == 3 else {
      if placed >= 0 { close(placed) }
      return false
    }
    return true
  }

  /// Opens the socket `run --listen` asks for (``open(_:)``) and says on
  /// standard error where it listens (unless `quiet`), or why it does not.
  /// Returns nil when it listens, else the exit status: 69 when the port
  /// could not be had (it may be free on a later start), 64 when socket
  /// activation passed sockets already.
  package static func listen(on address: ListenAddress, quiet: Bool) -> Int32? {
    switch open(address) {
    case .success(let bound):
      if !quiet {
        StandardError.write("plugboard: run: listening on \(bound), for every child", priority: .info)
      }
      return nil
    case .failure(let failure):
      StandardError.write("plugboard: run: \(failure)", priority: .error)
      if case .activated = failure { return ExitStatus.runMisuse.rawValue }
      return ExitStatus.runStartFailed.rawValue
    }
  }
}
