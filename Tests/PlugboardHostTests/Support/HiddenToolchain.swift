import Foundation

/// A machine without the Swift toolchain, as far as one process tree can
/// tell: commands run in a mount namespace of their own where an empty
/// folder (root's, mode 0755) is mounted over the toolchain's runtime
/// folder, `<toolchain>/usr/lib/swift`, so every run path entry into it
/// names a folder that does not exist. Needs root (`unshare --mount`).
enum HiddenToolchain {
  /// The folder hidden: the runtime folder of the `swiftc` on `PATH`.
  static let runtime: String? = Toolchain.find("swiftc").map {
    URL(fileURLWithPath: $0).resolvingSymlinksInPath().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("lib/swift").path
  }

  /// Why commands cannot run with the toolchain hidden here; nil when
  /// they can.
  static let unavailable: String? = {
    guard getuid() == 0 else { return "hiding the toolchain needs root (unshare --mount)" }
    guard let runtime, FileManager.default.fileExists(atPath: runtime) else {
      return "no Swift toolchain runtime folder to hide"
    }
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
      return "hiding the toolchain needs /usr/bin/unshare (util-linux)"
    }
    guard let probe = try? run("/bin/ls", [runtime]), probe.status == 0, probe.stdout.isEmpty else {
      return "unshare --mount could not hide \(runtime)"
    }
    return nil
  }()

  /// Runs `executable` with the toolchain's runtime hidden and without
  /// `LD_LIBRARY_PATH`, so what it loads comes from run paths and the
  /// system's folders alone.
  static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
    -> ProcessResult
  {
    let script =
      #"mount -t tmpfs -o mode=0755 plugboard-tests "$0" && exec /usr/bin/env -u LD_LIBRARY_PATH "$@""#
    return try Subprocess.run(
      "/usr/bin/unshare",
      ["--mount", "--propagation", "private", "/bin/sh", "-c", script, runtime ?? "/nonexistent", executable]
        + arguments, environment: environment)
  }
}
