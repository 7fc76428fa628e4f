import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// On a terminal, a slow stage shows which plugin, which stage and how
/// long, in place, and the line is erased when the stage ends. That a file
/// or a pipe never sees it is the decision function's test, and every
/// test reading stderr from a file: a slow stage with stderr on a file
/// would need a wait the test cannot observe.
@Suite(.blocking) struct ProgressIndicatorTests {
  @Test func onlyATerminalWithoutNoColorOrADumbTermAndNotQuiet() {
    #expect(ProgressIndicator.enabled(isTerminal: true, noColor: nil, term: "xterm", verbosity: .normal))
    #expect(ProgressIndicator.enabled(isTerminal: true, noColor: "", term: nil, verbosity: .verbose))
    #expect(!ProgressIndicator.enabled(isTerminal: false, noColor: nil, term: "xterm", verbosity: .normal))
    #expect(!ProgressIndicator.enabled(isTerminal: true, noColor: "1", term: "xterm", verbosity: .normal))
    #expect(!ProgressIndicator.enabled(isTerminal: true, noColor: nil, term: "dumb", verbosity: .normal))
    #expect(!ProgressIndicator.enabled(isTerminal: true, noColor: nil, term: "xterm", verbosity: .quiet))
  }

  @Test func theLineNamesThePluginTheStageAndTheTime() {
    #expect(
      ProgressIndicator.text(.assemble, plugin: "Slow", elapsed: .milliseconds(3400))
        == "plugboard: plugin 'Slow': assemble… 3 s")
    #expect(
      ProgressIndicator.text(.resolveApplication, plugin: nil, elapsed: .seconds(1))
        == "plugboard: resolve Application… 1 s")
    let long = String(repeating: "n", count: 60) + "\u{1B}"
    #expect(
      ProgressIndicator.text(.open, plugin: long, elapsed: .seconds(2))
        == "plugboard: plugin '\(String(repeating: "n", count: 39))…': open… 2 s")
  }

  /// GatedAssembly's `assemble` waits on a FIFO until the test opens and
  /// closes it: the test releases it once the progress line is on the
  /// terminal, so the stage is exactly as long as it must be.
  @Test(arguments: [[], ["--unsupervised"]])
  func aSlowStageShowsProgressOnATerminalAndErasesIt(extra: [String]) throws {
    let folder = try TemporaryDirectory()
    let gate = folder.path + "/gate"
    #expect(mkfifo(gate, 0o600) == 0)
    let manifest = try folder.writeManifest([
      (name: "GatedAssembly", path: BuildProducts.library("GatedAssembly"))
    ])
    let session = try TerminalSession(
      ["list", "--manifest", manifest] + extra, environment: ["PLUGBOARD_TEST_GATE": gate])
    let progress = "\r\u{1B}[Kplugboard: plugin 'GatedAssembly': assemble… 1 s"
    #expect(session.read(until: progress))
    let release = open(gate, O_WRONLY)
    #expect(release >= 0)
    close(release)
    #expect(session.finish() == 0)
    // Shown (redrawn each second until released), then erased, and
    // nothing else written: a healthy `list` says nothing on stderr.
    #expect(session.transcript.hasPrefix(progress))
    #expect(session.transcript.hasSuffix("\r\u{1B}[K"))
    #expect(!session.transcript.contains("\n"))
  }
}
