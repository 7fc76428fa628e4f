import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A client on a thread of its own: connects to a Unix socket, sends one
/// request line, reads the answer line and closes, until stopped; every
/// answer's time and the pid it names are kept, and so is every request
/// that got no answer.
final class RequestLoop: @unchecked Sendable {
  /// One answer: when it was read, and the pid that served it.
  struct Answer {
    let time: UInt64
    let pid: Int32
  }

  private let path: String
  private let request: [UInt8]
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var answers: [Answer] = []
  private var failed: [String] = []
  private var stopping = false
  private var finished = false

  init(path: String, request: String) {
    self.path = path
    self.request = Array((request + "\n").utf8)
  }

  func start() {
    let thread = Thread { [self] in
      while !condition.withLock({ stopping }) {
        let outcome = exchange()
        condition.withLock {
          switch outcome {
          case .success(let pid): answers.append(Answer(time: now(), pid: pid))
          case .failure(let failure): failed.append(failure.description)
          }
          condition.broadcast()
        }
      }
      condition.withLock {
        finished = true
        condition.broadcast()
      }
    }
    thread.start()
  }

  /// Stops the loop after the request under way.
  func stop() {
    condition.withLock {
      stopping = true
      while !finished { condition.wait() }
    }
  }

  /// The errors of the requests that got no answer.
  var failures: [String] { condition.withLock { failed } }

  /// The first answer read after `time` from a pid other than `pid`, or
  /// nil at `deadline`.
  func waitForAnswer(after time: UInt64, notFrom pid: Int32?, until deadline: UInt64) -> Answer? {
    condition.withLock {
      var checked = 0
      while true {
        while checked < answers.count {
          let answer = answers[checked]
          checked += 1
          if answer.time > time && answer.pid != pid { return answer }
        }
        let left = deadline > now() ? Double(deadline - now()) / 1e9 : 0
        if left <= 0 { return nil }
        _ = condition.wait(until: Date(timeIntervalSinceNow: min(left, 1)))
      }
    }
  }

  /// The longest time between two answers over `start…end`, counting
  /// from the last answer before `start` and up to `end`.
  func longestGap(from start: UInt64, to end: UInt64) -> UInt64 {
    condition.withLock {
      var previous = answers.last { $0.time <= start }?.time ?? start
      var longest: UInt64 = 0
      for answer in answers where answer.time > start && answer.time <= end {
        longest = max(longest, answer.time - previous)
        previous = answer.time
      }
      return max(longest, end - previous)
    }
  }

  /// One request: connect, send, read the answer's line, close.
  private func exchange() -> Result<Int32, BenchFailure> {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { return .failure(BenchFailure("socket: \(errnoText())")) }
    defer { close(descriptor) }
    var address = UnixAddress(path)
    guard address.connect(descriptor) == 0 else { return .failure(BenchFailure("connect: \(errnoText())")) }
    // MSG_NOSIGNAL: a connection the server closed is an error, not SIGPIPE.
    guard send(descriptor, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
      return .failure(BenchFailure("send: \(errnoText())"))
    }
    var line: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 512)
    while !line.contains(UInt8(ascii: "\n")) {
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else {
        return .failure(BenchFailure(count == 0 ? "closed without an answer" : "read: \(errnoText())"))
      }
      line += buffer[..<count]
    }
    guard let pid = Self.pid(in: String(decoding: line, as: UTF8.self)) else {
      return .failure(BenchFailure("an answer naming no pid: \(String(decoding: line, as: UTF8.self))"))
    }
    return .success(pid)
  }

  /// The number after the last `pid ` of an answer.
  static func pid(in answer: Substring) -> Int32? {
    guard let mark = answer.range(of: "pid ", options: .backwards) else { return nil }
    return Int32(answer[mark.upperBound...].prefix { $0.isNumber })
  }

  static func pid(in answer: String) -> Int32? { pid(in: answer[...]) }
}
