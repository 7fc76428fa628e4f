import Foundation
import PlugboardTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Runs `plugboard` with its standard output on a pseudo-terminal, as a
/// person at a terminal would, so `isatty(1)` holds in it; standard error
/// goes to a file. Made with the C library alone (`/dev/ptmx`), so it
/// works on a machine with only the toolchain.
enum PseudoTerminal {
  typealias Failure = FixtureFailure

  /// What `plugboard arguments` wrote on the terminal, with the terminal's
  /// `\r\n` turned back into `\n`. `NO_COLOR` is unset unless
  /// `environment` sets it.
  static func plugboard(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
    Blocking.requireBlockingThread("Running plugboard on a terminal")
    let (master, slave) = try openPair()
    defer { close(master) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BuildProducts.plugboard)
    process.arguments = arguments
    // Without the test runner's own NO_COLOR, if it has one.
    var inherited = ProcessInfo.processInfo.environment
    inherited["NO_COLOR"] = nil
    process.environment = inherited.merging(environment) { $1 }
    process.standardOutput = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      close(slave)
      throw error
    }
    // Only the child holds the terminal now: reading ends (EIO) when it is done.
    close(slave)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(master, &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    process.waitUntilExit()
    return String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
  }

  /// A new pseudo-terminal: its controlling side and its terminal side.
  static func openPair() throws -> (master: Int32, slave: Int32) {
    // posix_openpt and friends are not in Swift's Glibc module; on Linux
    // they are these: open the multiplexer, unlock the new terminal (the
    // ioctl TIOCSPTLCK) and ask its number (TIOCGPTN).
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    guard master >= 0 else {
      throw Failure(description: "cannot open /dev/ptmx: \(String(cString: strerror(errno)))")
    }
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
      close(master)
      throw Failure(description: "cannot set up the pseudo-terminal: \(String(cString: strerror(errno)))")
    }
    let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    guard slave >= 0 else {
      close(master)
      throw Failure(description: "cannot open /dev/pts/\(number)")
    }
    return (master, slave)
  }
}
