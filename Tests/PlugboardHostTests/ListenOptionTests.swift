import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// `plugboard run --listen [ADDRESS:]PORT`: the supervising process opens
/// the socket and hands it on as socket activation's (the reload that keeps
/// it is in ``ServingSampleTests``); what it accepts, and each refusal.
@Suite(.serialized, .blocking) struct ListenOptionTests {
  @Test(arguments: [
    ("7070", "127.0.0.1:7070"),
    ("0.0.0.0:80", "0.0.0.0:80"),
    ("127.0.0.1:0", "127.0.0.1:0"),
    ("[::1]:7070", "[::1]:7070"),
    ("[::]:65535", "[::]:65535"),
  ])
  func readsEachFormAsAServiceUnitWritesIt(_ written: String, _ read: String) {
    #expect(ListenAddress.parse(written)?.description == read)
  }

  @Test(arguments: [
    "", "70000", "65536", "-1", "+7070", " 7070", "localhost:7070", "::1:7070", "1.2.3.4:", ":7070",
    "[::1]", "[::1]7070", "1.2.3:7070", "[127.0.0.1]:7070", String(repeating: "1", count: 100),
  ])
  func refusesWhatIsNotAnAddressAndPort(_ written: String) {
    #expect(ListenAddress.parse(written) == nil)
  }

  @Test func aValueThatIsNotAnAddressIsAMisuse() throws {
    let result = try Subprocess.plugboard(["run", "--listen", "localhost:7070", "--", "--serve"])
    #expect(result.status == 64)
    #expect(
      result.stderrLines == [
        "plugboard: --listen takes [ADDRESS:]PORT, as 7070, 127.0.0.1:7070 or [::1]:7070, "
          + "found 'localhost:7070'",
        "Run 'plugboard run --help' for usage.",
      ])
  }

  /// A port another process listens on: refused before any plugin loads,
  /// with the status a service manager may retry (the port may be free on
  /// a later start) and what to do.
  @Test func aPortInUseIsRefusedWithWhoToAsk() throws {
    let (listening, port) = try ActivationSocket.listeningSocket()
    defer { close(listening) }
    let (_, manifest) = try SampleManifest.withoutIssueList()
    let result = try Subprocess.plugboard(
      ["run", "--listen", "127.0.0.1:\(port)", "--manifest", manifest, "--", "--serve"])
    #expect(result.status == 69)
    #expect(
      result.stderrLines == [
        "plugboard: run: cannot listen on 127.0.0.1:\(port): bind: Address already in use — another process "
          + "listens there (ss -ltnp 'sport = :\(port)' names it); stop it, or choose another port"
      ])
    #expect(result.stdout == "")
  }

  /// Under a `.socket` unit the unit's sockets are the service's: a second
  /// one from the command line is a mistake in the unit, said as such.
  @Test func socketActivationAndListenAreNotCombined() throws {
    let (folder, manifest) = try SampleManifest.withoutIssueList()
    defer { withExtendedLifetime(folder) {} }
    let (process, _) = try ActivationSocket.start(
      ["run", "--listen", "7070", "--manifest", manifest, "--", "--serve"])
    #expect(try process.finish() == .exited(64))
    #expect(
      process.stderrText
        == "plugboard: run: --listen cannot be combined with socket activation, which passed 1 socket "
        + "already (LISTEN_FDS): listen in the .socket unit instead\n")
  }

  /// The sample binds no port of its own: one it bound would still be the
  /// old child's when a reload's new child starts.
  @Test func theSampleSaysToListenThroughPlugboard() throws {
    let (folder, manifest) = try SampleManifest.withoutIssueList()
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(["run", "--manifest", manifest, "--", "--serve", "--port", "7070"])
    #expect(result.status == 2)
    #expect(
      result.stdout.split(separator: "\n").contains(
        "the sample binds no port of its own (a reload's new child would find it still the old one's): "
          + "serve with plugboard run --listen PORT -- --serve"), "\(result.stdout)")
  }
}
