import Foundation
import PlugboardTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `plugboard` running with its standard error on a pseudo-terminal, read
/// while it runs: a test waits for a line to appear, acts, and reads on.
/// Standard output goes to `/dev/null`.
final class TerminalSession {
  /// How long a test waits for text before giving up: a bound that keeps a
  /// broken build from hanging the suite, not a measurement.
  static let patience: Int32 = 60_000

  private let master: Int32
  private let process = Process()
  private var pending: [UInt8] = []
  /// Everything read so far, `\r\n` as `\n`.
  private(set) var transcript = ""

  init(_ arguments: [String], environment: [String: String] = [:]) throws {
    let (master, slave) = try PseudoTerminal.openPair()
    self.master = master
    process.executableURL = URL(fileURLWithPath: BuildProducts.plugboard)
    process.arguments = arguments
    var inherited = ProcessInfo.processInfo.environment
    inherited["NO_COLOR"] = nil
    inherited["TERM"] = "xterm"
    process.environment = inherited.merging(environment) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    process.standardInput = FileHandle.nullDevice
    defer { close(slave) }
    do {
      try process.run()
    } catch {
      close(master)
      throw error
    }
  }

  deinit {
    if process.isRunning { process.terminate() }
    close(master)
  }

  /// Reads until the transcript contains `text`; false if the terminal
  /// closed (the program ended) or ``patience`` ran out first.
  func read(until text: String) -> Bool {
    while !transcript.contains(text) {
      guard readChunk() else { return false }
    }
    return true
  }

  /// Reads until the program closes the terminal, then waits for it.
  /// - Returns: its exit status.
  func finish() -> Int32 {
    while readChunk() {}
    process.waitUntilExit()
    return process.terminationStatus
  }

  private func readChunk() -> Bool {
    Blocking.requireBlockingThread("Waiting for what a terminal shows")
    var watched = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    guard poll(&watched, 1, Self.patience) > 0 else { return false }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = Glibc.read(master, &buffer, buffer.count)
    guard count > 0 else { return false }
    pending += buffer[..<count]
    transcript = String(decoding: pending, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    return true
  }
}
