#if canImport(Glibc)
  import Glibc
#endif

/// Reads a child's terminal output to its end, noting when the first
/// newline arrived and what the first line said.
struct FirstLineReader {
  private(set) var firstLineNanoseconds: UInt64?
  private(set) var firstLine = ""
  private(set) var timedOut = false
  private var pending: [UInt8] = []

  /// Reads `descriptor` until the child closes its end (a terminal reports
  /// that as EIO, a pipe as end of file) or `deadline` passes.
  mutating func read(from descriptor: Int32, start: UInt64, deadline: UInt64) {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let current = now()
      guard current < deadline else {
        timedOut = true
        return
      }
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let waitMilliseconds = Int32(min((deadline - current) / 1_000_000 + 1, 1_000))
      let ready = poll(&poller, 1, waitMilliseconds)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { continue }
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return }
      guard firstLineNanoseconds == nil else { continue }
      let chunk = buffer[..<count]
      if let newline = chunk.firstIndex(of: UInt8(ascii: "\n")) {
        // Timed before anything else is done with the bytes.
        firstLineNanoseconds = now() - start
        pending += chunk[..<newline]
        // The terminal turns "\n" into "\r\n".
        if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
        firstLine = String(decoding: pending, as: UTF8.self)
      } else {
        pending += chunk
      }
    }
  }
}
