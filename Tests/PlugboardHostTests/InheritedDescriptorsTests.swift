import Foundation
import PlugboardTestSupport
import Testing

/// Descriptors plugboard inherited above 2 are closed before plugin code
/// runs (as sudo's `closefrom` does), except the sockets systemd's
/// socket activation passes, which the application in the supervised child
/// receives as its own.
@Suite(.serialized, .blocking) struct InheritedDescriptorsTests {
  /// Runs `plugboard list` on a deployment of the fixture that reports
  /// what it finds open, from a shell that opens `file` first on
  /// `descriptor` and then replaces itself with plugboard (`exec`), so
  /// plugboard inherits it as a careless parent would leave it.
  private func listInheriting(
    _ descriptor: Int, listen: Bool = false
  ) throws -> (result: ProcessResult, file: String) {
    let (folder, manifest, _) = try CFixtures.deployment("ReportDescriptors")
    defer { withExtendedLifetime(folder) {} }
    let file = try folder.write("plugboard-inherited-secret", "the operator's")
    // `$$` is the shell's pid, which plugboard keeps through `exec`.
    let activation = listen ? "LISTEN_PID=$$ LISTEN_FDS=1 " : ""
    let script = "exec \(descriptor)<\"$1\" 9>>\"$1\"; \(activation)exec \"$0\" list --manifest \"$2\""
    let result = try Subprocess.run("/bin/sh", ["-c", script, BuildProducts.plugboard, file, manifest])
    return (result, file)
  }

  @Test func aDescriptorLeftOpenIsNotPluginCodes() throws {
    let (result, _) = try listInheriting(7)
    #expect(result.exited && result.status == 1)
    #expect(!result.stderrLines.contains { $0.hasPrefix("inherited:") }, "\(result.stderr)")
    // Nor is what the launcher handed the host: its record file (mapped,
    // then closed) and the variable naming it.
    #expect(
      !result.stderrLines.contains { $0.hasPrefix("stage record:") || $0.hasPrefix("launch variable:") },
      "\(result.stderr)")
    // The fixture ran: its entry point's NULL is reported.
    #expect(
      result.stderrLines.contains {
        $0.contains("plugin 'ReportDescriptors'") && $0.contains("returned NULL")
      })
  }

  /// Socket activation's descriptors start at 3: plugboard keeps that one
  /// (and closes 9), and the supervised child that runs the application
  /// is the process `LISTEN_PID` names, as `sd_listen_fds` requires.
  @Test func socketActivationsDescriptorsAreKeptForTheApplication() throws {
    let (result, file) = try listInheriting(3, listen: true)
    let inherited = result.stderrLines.filter { $0.hasPrefix("inherited:") }
    #expect(inherited == ["inherited: \(file)"], "\(result.stderr)")
    #expect(result.stderrLines.contains("listen pid: own"), "\(result.stderr)")
  }
}
