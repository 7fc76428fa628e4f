import AppContracts
import Dispatch
import PlugboardKit
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The sample's serving mode (`plugboard run -- --serve`): the menu, on a
/// socket, one line per request.
///
/// - `menu` is answered with one line: the features the loaded plugins
///   contribute, in their order, and the process that answered
///   (`Menu (2 features): Account, Help; served by pid 4242`);
/// - `quit` is answered with `Bye`, and the connection closed;
/// - anything else is answered with what it accepts.
///
/// Every process that holds the listening sockets may accept on them: two
/// supervised children side by side both answer.
///
/// When the stop is requested it drains: it stops accepting (the listening
/// sockets stay open, for whoever accepts next), and closes each
/// connection once it has no request begun: at once when it is between
/// two requests, after the answer when a request is begun. A connection
/// accepted that has sent nothing yet gets its first request answered (its
/// client is sending it, unaware of the stop). It returns once no
/// connection is left, or when the stop's deadline passes. Cancelled, it
/// closes everything at once.
struct MenuServer: Sendable {
  /// The features' titles, in menu order.
  let features: [String]
  let console: any AppConsole

  /// The longest request line: a client that sends more without a line
  /// break is answered and disconnected.
  static let longestRequest = 1024

  /// The most answer bytes kept for a client that does not read them: one
  /// that sends requests and never reads would otherwise grow the server
  /// by every answer (a short request gets a longer answer). Past it the
  /// client is disconnected. Far more than a client reading its answers
  /// leaves unsent: the kernel's send buffer takes them first.
  static let mostUnread = 64 << 10

  /// The answer to one request line, and whether the connection closes
  /// after it.
  func answer(_ request: String) -> (line: String, close: Bool) {
    switch request {
    case "menu":
      let list = features.joined(separator: ", ")
      return ("Menu (\(features.count) features): \(list); served by pid \(getpid())", false)
    case "quit": return ("Bye", true)
    default: return ("unknown request \"\(request.prefix(40))\": send menu or quit", false)
    }
  }

  /// Serves on `listeners` until `stop` is requested and every connection
  /// drained, or the task is cancelled. The loop runs on a thread of its
  /// own: `poll` blocks it, which a cooperative thread must not be.
  func serve(_ listeners: [Int32], stop: StopRequest) async throws(ListeningSockets.Failure) {
    let wake = try Wake()
    say("Serving the menu on \(Self.count(listeners.count, "socket")), pid \(getpid())")
    stop.onRequest { wake.send(Wake.stop) }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue(label: "MenuServer").async {
          ServingLoop(server: self, listeners: listeners, wake: wake, stop: stop).run()
          wake.close()
          done.resume()
        }
      }
    } onCancel: {
      wake.send(Wake.cancel)
    }
  }

  /// "1 socket", "2 sockets".
  static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  /// A line on the console, at once: the operator (and a test) reads it
  /// while the server runs, not when the process ends.
  func say(_ line: String) {
    console.write(line)
    fflush(nil)
  }
}

/// A socket pair that the stop request and cancellation write one byte to,
/// to wake the serving loop from `poll`. Closed (under its lock) when the
/// loop ends, so a late request writes nowhere rather than to a descriptor
/// reused since.
private final class Wake: Sendable {
  static let stop: UInt8 = 1
  static let cancel: UInt8 = 2
  private let ends: Mutex<(read: Int32, write: Int32)?>

  init() throws(ListeningSockets.Failure) {
    var pair: [Int32] = [-1, -1]
    let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
    guard socketpair(AF_UNIX, kind, 0, &pair) == 0 else { throw .call("socketpair", errno) }
    ends = Mutex((pair[0], pair[1]))
  }

  /// The end the loop polls; -1 once closed.
  var reading: Int32 { ends.withLock { $0?.read ?? -1 } }

  func send(_ byte: UInt8) {
    ends.withLock { ends in
      guard let ends else { return }
      var byte = byte
      _ = write(ends.write, &byte, 1)
    }
  }

  func close() {
    ends.withLock { ends in
      if let open = ends {
        _ = Glibc.close(open.read)
        _ = Glibc.close(open.write)
      }
      ends = nil
    }
  }
}

/// The serving loop: one thread, `poll` over the wake-up socket, the
/// listening sockets (until the stop) and the connections.
private final class ServingLoop {
  private struct Connection {
    /// Received, not yet a whole request.
    var input: [UInt8] = []
    /// Answers not yet sent.
    var output: [UInt8] = []
    /// Closed once `output` is sent.
    var closing = false
    /// Requests answered: one not yet answered any is waited for at the
    /// stop, for its first.
    var answered = 0
  }

  private let server: MenuServer
  private let listeners: [Int32]
  private let wake: Wake
  private let stop: StopRequest
  private var connections: [Int32: Connection] = [:]
  /// Set by the stop request: no more accepting, and until when to drain.
  private var deadline: ContinuousClock.Instant?

  init(server: MenuServer, listeners: [Int32], wake: Wake, stop: StopRequest) {
    self.server = server
    self.listeners = listeners
    self.wake = wake
    self.stop = stop
  }

  func run() {
    let waking = wake.reading
    while deadline == nil || !connections.isEmpty {
      var watched = [pollfd(fd: waking, events: Int16(POLLIN), revents: 0)]
      if deadline == nil {
        watched += listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      }
      for (socket, connection) in connections {
        let events = Int16(POLLIN) | (connection.output.isEmpty ? 0 : Int16(POLLOUT))
        watched.append(pollfd(fd: socket, events: events, revents: 0))
      }
      var timeout: Int32 = -1
      if let deadline {
        let left = deadline - ContinuousClock.now
        guard left > .zero else {
          server.say(
            "Stop: time is up; closing \(MenuServer.count(connections.count, "connection")) not drained")
          closeAll()
          return
        }
        timeout = Int32(
          clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
      }
      let ready = poll(&watched, nfds_t(watched.count), timeout)
      if ready < 0 && errno != EINTR {
        server.say("Serving stopped: poll: \(String(cString: strerror(errno)))")
        closeAll()
        return
      }
      for entry in watched where entry.revents != 0 {
        if entry.fd == waking {
          guard woken() else { return }
        } else if listeners.contains(entry.fd) {
          if deadline == nil { accept(on: entry.fd) }
        } else if connections[entry.fd] != nil {
          serve(entry.fd)
        }
      }
    }
    server.say("Stopped serving: every connection drained")
  }

  /// Reads the wake-up bytes: on a stop, begins draining; false when
  /// cancelled (everything is closed then).
  private func woken() -> Bool {
    var bytes = [UInt8](repeating: 0, count: 16)
    let count = bytes.withUnsafeMutableBytes { read(wake.reading, $0.baseAddress, $0.count) }
    let received = count > 0 ? bytes[..<count] : []
    if received.contains(Wake.cancel) {
      server.say("Cancelled: closing \(MenuServer.count(connections.count, "connection"))")
      closeAll()
      return false
    }
    if received.contains(Wake.stop) && deadline == nil {
      deadline = stop.deadline ?? ContinuousClock.now + stop.limit
      for socket in Array(connections.keys) { closeIfIdle(socket) }
      server.say(
        "Stop requested: no longer accepting; \(MenuServer.count(connections.count, "connection")) to drain")
    }
    return true
  }

  /// Accepts every connection waiting; another process may have taken
  /// them first, which leaves nothing to accept.
  private func accept(on listener: Int32) {
    while true {
      let socket = Glibc.accept(listener, nil, nil)
      guard socket >= 0 else { return }
      _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
      _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
      connections[socket] = Connection()
    }
  }

  /// Reads what came, answers each whole request, sends what it can.
  private func serve(_ socket: Int32) {
    guard var connection = connections[socket] else { return }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
    if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) {
      // The client closed or reset it: nothing more to answer.
      drop(socket)
      return
    }
    if count > 0 && !connection.closing { connection.input += buffer[..<count] }
    while !connection.closing, let end = connection.input.firstIndex(of: 10) {
      var line = String(decoding: connection.input[..<end], as: UTF8.self)
      if line.hasSuffix("\r") { line.removeLast() }
      connection.input.removeSubrange(...end)
      let answer = server.answer(line)
      connection.output += Array((answer.line + "\n").utf8)
      connection.closing = answer.close
      connection.answered += 1
      guard connection.output.count <= MenuServer.mostUnread else {
        server.say(
          "Dropped a client: it left more than \(MenuServer.mostUnread) bytes of answers unread")
        drop(socket)
        return
      }
    }
    if connection.input.count > MenuServer.longestRequest {
      connection.output += Array(
        "request too long: one line of at most \(MenuServer.longestRequest) bytes\n".utf8)
      connection.closing = true
    }
    // Draining: a connection is closed once no request of it is begun.
    if deadline != nil && connection.input.isEmpty && connection.answered > 0 { connection.closing = true }
    connections[socket] = connection
    flush(socket)
  }

  /// At the stop: closes `socket` if it is between two requests, with none
  /// begun, received or waiting to be read; else lets `serve` answer it
  /// first.
  private func closeIfIdle(_ socket: Int32) {
    guard var connection = connections[socket], connection.answered > 0 else { return }
    var byte: UInt8 = 0
    let waiting = recv(socket, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
    guard connection.input.isEmpty, waiting < 0 else { return }
    connection.closing = true
    connections[socket] = connection
    flush(socket)
  }

  /// Sends what is pending; closes the connection when it is to close and
  /// all is sent, or when sending fails.
  private func flush(_ socket: Int32) {
    guard var connection = connections[socket] else { return }
    if !connection.output.isEmpty {
      let sent = connection.output.withUnsafeBytes {
        send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
      }
      if sent < 0 && errno != EAGAIN && errno != EINTR {
        drop(socket)
        return
      }
      if sent > 0 { connection.output.removeFirst(sent) }
    }
    if connection.closing && connection.output.isEmpty {
      drop(socket)
      return
    }
    connections[socket] = connection
  }

  private func drop(_ socket: Int32) {
    connections[socket] = nil
    Glibc.close(socket)
  }

  private func closeAll() {
    for socket in Array(connections.keys) { drop(socket) }
  }
}
