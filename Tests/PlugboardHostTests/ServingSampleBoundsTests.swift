import Foundation
import PlugboardTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The sample's socket server keeps what one client can make it hold
/// bounded: a client that sends requests and never reads the answers is
/// dropped once they pass a bound, rather than growing the server by every
/// answer (each longer than its request).
@Suite(.serialized, .blocking) struct ServingSampleBoundsTests {
  @Test func aClientThatNeverReadsItsAnswersIsDropped() throws {
    let (folder, manifest) = try SampleManifest.withoutIssueList()
    defer { withExtendedLifetime(folder) {} }
    let (process, port) = try ActivationSocket.start(["run", "--manifest", manifest, "--", "--serve"])
    try #require(try process.waitForLine { $0.hasPrefix("Serving the menu on 1 socket") } != nil)
    let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    try #require(client >= 0)
    defer { close(client) }
    var small: Int32 = 4096
    _ = setsockopt(client, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
    var address = MenuClient.loopback(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    try #require(connected)
    // Requests, never a read: the answers pile up in the server until it
    // drops the client, which makes the next send fail. Without the bound
    // the server takes every byte (and holds twenty times as many).
    let requests = Array(String(repeating: "menu\n", count: 13_000).utf8)
    let ceiling = 16 << 20
    var sent = 0
    var failure: Int32 = 0
    while sent < ceiling {
      let count = requests.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard count > 0 else {
        failure = errno
        break
      }
      sent += count
    }
    #expect(sent < ceiling, "the server took \(sent) bytes of requests whose answers were never read")
    #expect(failure == EPIPE || failure == ECONNRESET, "send: \(String(cString: strerror(failure)))")
    let dropped = try process.waitForLine { $0.hasPrefix("Dropped a client") }
    #expect(dropped == "Dropped a client: it left more than 65536 bytes of answers unread")
    process.signal(SIGTERM)
    #expect(try process.finish() == .killed(SIGTERM), "\(process.stderrText)")
  }
}
