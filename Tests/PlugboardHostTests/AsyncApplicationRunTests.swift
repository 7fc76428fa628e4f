import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// `plugboard run` with an `Application` made by an async factory that
/// awaits an async `.container` registration (the test plugin
/// AsyncApplication): resolved through the awaited path.
@Suite(.blocking) struct AsyncApplicationRunTests {
  @Test func runResolvesAnApplicationMadeByAnAsyncFactory() throws {
    let folder = try TemporaryDirectory()
    defer { withExtendedLifetime(folder) {} }
    let library = BuildProducts.library("AsyncApplication")
    let manifest = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, \#(BuildProducts.rootsMember) "plugins": [ "#
        + #"{ "name": "AsyncApplication", "path": "\#(library)" } ] }"#)
    let result = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(result.stderr == "")
    #expect(result.exited && result.status == 0)
    #expect(result.stdout == "running with a connection opened by an await\n")
    // The graph is sound as declared: check has nothing to say against it.
    let check = try Subprocess.plugboard(["check", "--manifest", manifest])
    #expect(check.exited && check.status == 0)
  }
}
