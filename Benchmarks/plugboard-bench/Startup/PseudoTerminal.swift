#if canImport(Glibc)
  import Glibc
#endif

/// A pseudo-terminal pair the child writes its standard output to.
///
/// Why not a pipe: Swift's `print` goes through C stdio, which fully
/// buffers a pipe and flushes only at exit, so "the first line" would
/// really be "the process ended". On a terminal stdio flushes at each
/// newline, so the first line arrives when the application writes it.
struct PseudoTerminal {
  /// The end the benchmark reads.
  let controller: Int32
  /// The end the child gets as its standard output.
  let device: Int32

  // `posix_openpt`, `unlockpt` and `ptsname` are hidden from Swift's Glibc
  // module (they need _XOPEN_SOURCE), so this does what they do on Linux:
  // open the multiplexer, unlock the new device, ask for its number.
  private static let unlockRequest: UInt = 0x4004_5431  // TIOCSPTLCK = _IOW('T', 0x31, int)
  private static let numberRequest: UInt = 0x8004_5430  // TIOCGPTN = _IOR('T', 0x30, unsigned int)

  static func open() -> Result<PseudoTerminal, BenchFailure> {
    let controller = Glibc.open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard controller >= 0 else { return .failure(BenchFailure("cannot open /dev/ptmx: \(errnoText())")) }
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard ioctl(controller, unlockRequest, &unlock) == 0, ioctl(controller, numberRequest, &number) == 0
    else {
      let failure = BenchFailure("cannot set up a pseudo-terminal: \(errnoText())")
      close(controller)
      return .failure(failure)
    }
    let device = Glibc.open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard device >= 0 else {
      let failure = BenchFailure("cannot open /dev/pts/\(number): \(errnoText())")
      close(controller)
      return .failure(failure)
    }
    return .success(PseudoTerminal(controller: controller, device: device))
  }
}

/// The text of the current `errno`.
func errnoText() -> String {
  String(cString: strerror(errno))
}
