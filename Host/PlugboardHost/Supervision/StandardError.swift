#if canImport(Glibc)
  import Glibc
#endif

/// Lines to standard error with `write(2)`, for the supervising parent,
/// which must not trap when standard error is closed or full: it has no
/// one else to tell, so a failed write is dropped.
enum StandardError {
  static func write(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    bytes.withUnsafeMutableBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(
          STDERR_FILENO, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
      }
    }
  }
}
