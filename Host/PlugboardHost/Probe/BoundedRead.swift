import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a pipe to its end, giving up at a deadline: the probe's child may
/// hang inside a plugin's initializer, and `check` must still finish.
///
/// Waits with `poll(2)` on the pipe, so the parent sleeps in the kernel
/// until the child writes, closes the pipe (by exiting or dying) or the
/// deadline passes; nothing spins and nothing sleeps a fixed time.
enum BoundedRead {
  /// Everything written to `handle` until its writer closed it, or nil when
  /// `timeout` passed first.
  static func toEnd(of handle: FileHandle, within timeout: Duration) -> Data? {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    let descriptor = handle.fileDescriptor
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let milliseconds = Self.milliseconds(in: deadline - clock.now)
      guard milliseconds > 0 else { return nil }
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&request, 1, milliseconds)
      if ready < 0 {
        if errno == EINTR { continue }
        return data
      }
      guard ready > 0 else { return nil }
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return data
      }
      guard count > 0 else { return data }
      data.append(contentsOf: buffer[..<count])
    }
  }

  /// `duration` in whole milliseconds, rounded up, as `poll` takes it.
  private static func milliseconds(in duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0, attoseconds >= 0 || seconds > 0 else { return 0 }
    let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: total)
  }
}
