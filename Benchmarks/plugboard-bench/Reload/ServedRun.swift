import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A deployment served as under systemd's socket activation, reloaded with
/// SIGHUP while a client sends requests in a loop (`reload_*`).
///
/// The benchmark binds a Unix socket, starts `plugboard run … -- --serve`
/// with it as descriptor 3 (`LISTEN_FDS=1`, `LISTEN_PID` its own pid, set
/// by `sh` before it execs plugboard), and closes its own copy, as a
/// `.socket` unit hands it over: a connection is then answered only if
/// plugboard's processes keep the socket. A client thread connects, sends
/// one request, reads the answer and closes, again and again; every answer
/// names the pid that served it. Each reload is timed from the SIGHUP to
/// the first answer of a pid other than the one serving before it.
struct ServedRun {
  /// What one reload took, in nanoseconds.
  struct Reload {
    /// From the SIGHUP to the first answer of the new child.
    let switchover: UInt64
    /// The longest time between two answers from just before the SIGHUP
    /// until the old child ended.
    let longestGap: UInt64
  }

  /// The reloads, and the requests that got no answer over the whole run
  /// (refused, reset, or closed without an answer), with the first error.
  struct Outcome {
    let reloads: [Reload]
    let failedRequests: Int
    let firstError: String?
  }

  let plugboard: String
  let arguments: [String]
  let environment: [String: String]
  /// The request line, and how a pid is found in its answer.
  let request: String
  let work: URL

  /// Starts the deployment, reloads it `count` times, stops it.
  func run(reloads count: Int, timeoutSeconds: Double = 120) -> Result<Outcome, BenchFailure> {
    let path = work.appendingPathComponent("served.sock").path
    unlink(path)
    let listener: Int32
    switch Self.listen(at: path) {
    case .success(let descriptor): listener = descriptor
    case .failure(let failure): return .failure(failure)
    }
    let spawned = spawn(listener: listener)
    close(listener)
    let pid: pid_t
    switch spawned {
    case .success(let started): pid = started
    case .failure(let failure): return .failure(failure)
    }
    let client = RequestLoop(path: path, request: request)
    client.start()
    defer {
      client.stop()
      kill(pid, SIGTERM)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      unlink(path)
    }
    let deadline = { now() + UInt64(timeoutSeconds * 1e9) }
    guard var serving = client.waitForAnswer(after: 0, notFrom: nil, until: deadline()) else {
      return .failure(
        BenchFailure("no answer within \(Int(timeoutSeconds)) s; see \(work.path)/served.stderr"))
    }
    var reloads: [Reload] = []
    for _ in 0..<count {
      let asked = now()
      kill(pid, SIGHUP)
      guard let fresh = client.waitForAnswer(after: asked, notFrom: serving.pid, until: deadline()) else {
        return .failure(BenchFailure("no new child answered a reload; see \(work.path)/served.stderr"))
      }
      // The next reload starts from one child: wait for the old one's end.
      guard Self.waitForEnd(of: serving.pid, until: deadline()) else {
        return .failure(BenchFailure("the replaced child \(serving.pid) did not end"))
      }
      let ended = now()
      reloads.append(
        Reload(switchover: fresh.time - asked, longestGap: client.longestGap(from: asked, to: ended)))
      serving = fresh
    }
    let failures = client.failures
    return .success(Outcome(reloads: reloads, failedRequests: failures.count, firstError: failures.first))
  }

  /// `plugboard run`, through `sh` so that `LISTEN_PID` names the process
  /// plugboard becomes, with `listener` as descriptor 3.
  private func spawn(listener: Int32) -> Result<pid_t, BenchFailure> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    let output = work.appendingPathComponent("served.stdout").path
    let errors = work.appendingPathComponent("served.stderr").path
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, listener, 3)
    let script = #"LISTEN_PID=$$ LISTEN_FDS=1 exec "$0" "$@""#
    let argv = CStringArray(["/bin/sh", "-c", script, plugboard] + arguments)
    let envp = CStringArray(environment.map { "\($0.key)=\($0.value)" })
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv.pointers, envp.pointers)
    guard spawned == 0 else {
      return .failure(BenchFailure("cannot start /bin/sh: \(String(cString: strerror(spawned)))"))
    }
    return .success(pid)
  }

  /// A listening Unix socket at `path`.
  private static func listen(at path: String) -> Result<Int32, BenchFailure> {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return .failure(BenchFailure("socket: \(errnoText())")) }
    var address = UnixAddress(path)
    guard address.bind(descriptor) == 0, Glibc.listen(descriptor, 128) == 0 else {
      let failure = BenchFailure("cannot listen at \(path): \(errnoText())")
      close(descriptor)
      return .failure(failure)
    }
    return .success(descriptor)
  }

  /// Whether the process `pid` (a grandchild: plugboard's child) ended
  /// before `deadline`. Polled: it is no child of the benchmark's to wait
  /// for.
  private static func waitForEnd(of pid: Int32, until deadline: UInt64) -> Bool {
    while now() < deadline {
      if kill(pid, 0) != 0 && errno == ESRCH { return true }
      var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
      nanosleep(&pause, nil)
    }
    return false
  }
}

/// A `sockaddr_un` for a path.
struct UnixAddress {
  private var storage = sockaddr_un()

  init(_ path: String) {
    storage.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &storage.sun_path) { bytes in
      for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
    }
  }

  mutating func bind(_ descriptor: Int32) -> Int32 {
    withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
  }

  mutating func connect(_ descriptor: Int32) -> Int32 {
    withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
  }
}
