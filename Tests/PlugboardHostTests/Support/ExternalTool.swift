import Foundation

/// Tools beyond the toolchain and binutils that some tests need (Graphviz's
/// `dot`). Such a test runs when its tool is on `PATH` and is skipped, with
/// its reason shown, when it is not — unless the environment variable
/// `PLUGBOARD_REQUIRE_TOOLS` (comma-separated, e.g. `dot`) names the tool:
/// then the test runs anyway and fails if the tool is missing, so a CI job
/// that installs the tool cannot skip silently.
enum ExternalTool {
  /// The tools `PLUGBOARD_REQUIRE_TOOLS` names.
  static var required: Set<String> {
    let listed = ProcessInfo.processInfo.environment["PLUGBOARD_REQUIRE_TOOLS"] ?? ""
    return Set(
      listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
  }

  /// Whether a test needing `tool` should run: the tool is on `PATH`, or
  /// it is required.
  static func shouldRun(_ tool: String) -> Bool {
    Toolchain.find(tool) != nil || required.contains(tool)
  }
}
