import Foundation
import PlugboardTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The sample serving its menu (`plugboard run -- --serve`) on the socket
/// socket activation passes, as a `.socket` unit would: the features the
/// loaded plugins contribute, answered by the supervised child; a stop
/// request that lets the requests begun finish; and the socket kept by the
/// supervising parent for every child it starts.
@Suite(.serialized, .blocking) struct ServingSampleTests {
  /// The one child plugboard supervises now.
  private func servingChild(of process: GroupedProcess) throws -> pid_t {
    let children = process.children
    try #require(children.count == 1, "plugboard's children: \(children)")
    return children[0]
  }

  /// Starts the sample deployment of `manifest` serving on a socket of its
  /// own, asks for the menu, and stops it; the answer, from its child.
  private func menu(of manifest: String) throws -> String? {
    let (process, port) = try ActivationSocket.start(["run", "--manifest", manifest, "--", "--serve"])
    let client = MenuClient(port: port)
    let answer = try client.ask("menu")
    let child = try servingChild(of: process)
    // `quit` is answered, and ends the connection.
    try #require(try client.connect() && client.send("quit\n"))
    #expect(try client.readLine() == "Bye")
    #expect(try client.isClosed())
    process.signal(SIGTERM)
    #expect(try process.finish() == .killed(SIGTERM), "\(process.stderrText)")
    #expect(process.stderrText == "")
    #expect(client.refused == 0 && client.reset == 0)
    let serving = "Serving the menu on 1 socket, pid \(child)"
    #expect(process.stdoutLines.map(String.init).contains(serving), "\(process.stdoutText)")
    return answer?.replacingOccurrences(of: "pid \(child)", with: "pid CHILD")
  }

  @Test func theSampleAnswersWithTheFeaturesItsPluginsContribute() throws {
    let (folder, manifest) = try SampleManifest.withoutIssueList()
    #expect(try menu(of: manifest) == "Menu (2 features): Account, Help; served by pid CHILD")

    // Dropped in, IssueList's feature is served by the deployment started next.
    try SampleManifest.dropIssueList(into: folder)
    #expect(try menu(of: manifest) == "Menu (3 features): Account, Open issues, Help; served by pid CHILD")
  }

  /// Serves `manifest`'s deployment, whose menu is `menu`, and stops it
  /// with SIGTERM, passed on to the child: no more accepting, a connection
  /// between two requests is closed, one whose request is begun gets its
  /// answer and is closed then, and plugboard ends by SIGTERM. What the
  /// deployment printed after the application ended.
  private func drainOnStop(_ manifest: String, menu: String) throws -> [String] {
    let (process, port) = try ActivationSocket.start(["run", "--manifest", manifest, "--", "--serve"])
    let begun = MenuClient(port: port)
    let idle = MenuClient(port: port)
    for client in [begun, idle] {
      try #require(try client.connect() && client.send("menu\n"))
      // Answered: accepted by the server.
      #expect(try client.readLine()?.hasPrefix(menu) == true)
    }
    try #require(try begun.send("me"))
    // Before the stop: once drained, the child ends.
    let child = try servingChild(of: process)
    process.signal(SIGTERM)
    #expect(try process.waitForLine("Stop requested: no longer accepting; 1 connection to drain"))
    #expect(try idle.isClosed())
    try #require(try begun.send("nu\n"))
    #expect(try begun.readLine() == "\(menu); served by pid \(child)")
    #expect(try begun.isClosed())
    #expect(try process.finish() == .killed(SIGTERM), "\(process.stderrText)")
    #expect(process.stderrText == "")
    #expect(begun.reset == 0 && idle.reset == 0)
    let lines = process.stdoutLines.map(String.init)
    let stopped = try #require(lines.firstIndex(of: "Stopped serving: every connection drained"))
    return Array(lines[stopped...].dropFirst())
  }

  @Test func aStopRequestLetsARequestBegunFinish() throws {
    let (folder, manifest) = try SampleManifest.withoutIssueList()
    defer { withExtendedLifetime(folder) {} }
    let after = try drainOnStop(manifest, menu: "Menu (2 features): Account, Help")
    // After the application, the stop hooks.
    #expect(after == ["Auth: session store closed", "Keychain: locked"])
  }

  /// A deployment without lifecycle hooks used to keep SIGTERM's default
  /// action, which ended the application mid-answer: a draining one is
  /// told instead.
  @Test func anApplicationDrainsInADeploymentWithoutHooks() throws {
    let folder = try TemporaryDirectory()
    let entries = ["AuthMock", "Login", "Shell"].map {
      #"{ "name": "\#($0)", "path": "\#(BuildProducts.library($0))" }"#
    }
    let manifest = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, \#(BuildProducts.rootsMember) "activeProfile": "live", "#
        + #""profiles": { "live": { "description": "unlabelled output" } }, "#
        + #""plugins": [ \#(entries.joined(separator: ", ")) ] }"#)
    #expect(try drainOnStop(manifest, menu: "Menu (2 features): Account, Help") == [])
  }

  /// A plugin that crashes while it assembles is set aside and a second
  /// child started: the socket, held by the supervising parent, is that
  /// child's too, and a connection made while the first was crashing is
  /// answered by the second.
  @Test func theSocketOutlivesAChildAPluginCrashed() throws {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    let sample = SampleManifest.text(analytics: analytics)
    let shell = #"{ "name": "Shell", "path": "\#(BuildProducts.library("Shell"))" },"#
    try #require(sample.contains(shell))
    let trapping =
      #"{ "name": "TrappingAssembly", "path": "\#(BuildProducts.library("TrappingAssembly"))", "optional": true },"#
    let manifest = try folder.write(
      "plugins.json", sample.replacingOccurrences(of: shell, with: trapping + shell))
    let (process, port) = try ActivationSocket.start(["run", "--manifest", manifest, "--", "--serve"])
    let client = MenuClient(port: port)
    let answer = try client.ask("menu")
    let child = try servingChild(of: process)
    #expect(answer == "Menu (3 features): Account, Open issues, Help; served by pid \(child)")
    process.signal(SIGTERM)
    #expect(try process.finish() == .killed(SIGTERM))
    #expect(client.refused == 0 && client.reset == 0)
    #expect(
      process.stderrText.contains("plugin 'TrappingAssembly'")
        && process.stderrText.contains("crashed with SIGILL"),
      "\(process.stderrText)")
  }

  /// A client asking for the menu in a loop, a connection per request,
  /// throughout a reload that adds a plugin: every request is answered,
  /// by the old child and then by the new one, which shows the new
  /// feature; no connection is refused or reset. The same whether a
  /// `.socket` unit passed the socket or `run --listen` opened it.
  @Test(arguments: SocketSource.allCases)
  func aClientAskingThroughoutAReloadGetsEveryAnswer(_ source: SocketSource) throws {
    let (folder, manifest) = try SampleManifest.withoutIssueList()
    defer { withExtendedLifetime(folder) {} }
    let (process, port) = try source.start(run: ["--manifest", manifest, "--", "--serve"])
    // Up: a SIGHUP before then would stop it.
    try #require(try process.waitForLine { $0.hasPrefix("Serving the menu on 1 socket") } != nil)
    let old = try servingChild(of: process)

    let reloaded = Atomic<Bool>(false)
    let asked = Mutex<(answers: [String?], refused: Int, reset: Int)>(([], 0, 0))
    let done = DispatchSemaphore(value: 0)
    Thread {
      defer { done.signal() }
      let client = MenuClient(port: port)
      // Until the reload is over, then ten more.
      var after = 0
      while after < 10 {
        if reloaded.load(ordering: .sequentiallyConsistent) { after += 1 }
        let answer = try? client.ask("menu")
        asked.withLock { $0.answers.append(answer) }
      }
      asked.withLock { ($0.refused, $0.reset) = (client.refused, client.reset) }
    }.start()
    defer { reloaded.store(true, ordering: .sequentiallyConsistent) }

    try SampleManifest.dropIssueList(into: folder)
    process.signal(SIGHUP)
    let outcome = try process.waitForLine(onStderr: true) {
      $0.hasPrefix("plugboard: run: reloaded: ") || $0.hasPrefix("plugboard: run: reload failed ")
    }
    #expect(outcome?.hasSuffix("; plugins added: IssueList") == true, "\(process.stderrText)")
    let new = try servingChild(of: process)
    reloaded.store(true, ordering: .sequentiallyConsistent)
    try #require(
      done.wait(timeout: .now() + .seconds(Int(GroupedProcess.limit.components.seconds))) == .success)

    let (answers, refused, reset) = asked.withLock { $0 }
    #expect(refused == 0 && reset == 0, "\(answers.count) requests")
    #expect(!answers.contains(nil))
    let before = "Menu (2 features): Account, Help; served by pid \(old)"
    let after = "Menu (3 features): Account, Open issues, Help; served by pid \(new)"
    #expect(new != old)
    #expect(answers.first == before)
    #expect(answers.last == after)
    #expect(answers.allSatisfy { $0 == before || $0 == after })
    // The old child drained, and its stop hooks ran.
    #expect(process.stdoutLines.contains("Stopped serving: every connection drained"))
    process.signal(SIGTERM)
    #expect(try process.finish() == .killed(SIGTERM))
  }
}
