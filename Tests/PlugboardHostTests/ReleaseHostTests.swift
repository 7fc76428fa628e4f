import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// The host built for release and installed with `Scripts/install-host`, as
/// an operator ships it (Docs/shipping.md, "Building for release"), running
/// a release-built plugin where the toolchain's `usr/lib/swift/linux` is
/// out of reach, and refusing the debug build of the same plugin with the
/// advice to build it for release.
///
/// It needs release products, which this suite's debug build does not
/// make: see ``ReleaseProducts``.
@Suite(.enabled(if: ReleaseProducts.directory != nil, ReleaseProducts.missing), .blocking)
struct ReleaseHostTests {
  /// A release `plugboard` installed into a fresh prefix, and a deployment
  /// folder beside it holding the release and the debug `libHealthy.so`,
  /// each with its run path cut to `$ORIGIN` (``ShippedPlugin``), and a
  /// manifest for each.
  private struct Installation {
    let folder: TemporaryDirectory
    var plugboard: String { folder.path + "/prefix/bin/plugboard" }
    var release: String { folder.path + "/deployment/release.json" }
    var debug: String { folder.path + "/deployment/debug.json" }
    var debugFolder: String { folder.path + "/deployment/debug" }

    init() throws {
      let plugboard = try ReleaseProducts.path("plugboard")
      let healthy = try ReleaseProducts.path("libHealthy.so")
      folder = try TemporaryDirectory()
      let installed = try Subprocess.run(
        BuildProducts.packageRoot + "/Scripts/install-host",
        ["--from", URL(fileURLWithPath: plugboard).deletingLastPathComponent().path, folder.path + "/prefix"])
      try #require(installed.status == 0, "\(installed.stderr)")

      let deployment = folder.path + "/deployment"
      for (build, library) in [
        ("release", healthy), ("debug", BuildProducts.library("Healthy")),
      ] {
        try FileManager.default.createDirectory(
          atPath: deployment + "/" + build, withIntermediateDirectories: true)
        try ShippedPlugin.copy(library, to: deployment + "/\(build)/libHealthy.so")
        try folder.write(
          "deployment/\(build).json",
          #"{ "formatVersion": 1, "plugins": [ { "name": "Healthy", "path": "\#(build)/libHealthy.so" } ] }"#)
      }
    }

    /// Runs the installed `plugboard` with no `LD_LIBRARY_PATH`, so what it
    /// and its plugins load comes from their run paths and the system's
    /// folders alone.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
      try Subprocess.run(
        "/usr/bin/env", ["-u", "LD_LIBRARY_PATH", plugboard] + arguments, environment: environment)
    }
  }

  @Test func runsAndChecksAReleasePluginWithoutTheToolchain() throws {
    let installation = try Installation()
    let run = try installation.run(["run", "--manifest", installation.release, "--", "exit", "3"])
    #expect(run.stdout == "Healthy is running\n")
    #expect(run.stderr == "")
    #expect(run.status == 3)

    let check = try installation.run(["check", "--manifest", installation.release])
    #expect(
      check.stdout
        == "Checking \(installation.release): 1 plugin (1 loaded), 1 registration\n\n"
        + "check: 0 errors, 0 warnings; the deployment is healthy\n")
    #expect(check.status == 0)

    // Every Swift library initialised came from the prefix: none from the
    // toolchain, whose run path entry the plugin no longer has. The plugin
    // itself is handed to the loader through its held folder, which the
    // loader names `/proc/self/fd/<n>/`.
    let traced = try installation.run(
      ["run", "--manifest", installation.release], environment: LoaderTrace.environment)
    #expect(traced.status == 0)
    let loaded = LoaderTrace.initialised(traced)
    let heldFolder = #/^/proc/self/fd/[0-9]+/libHealthy\.so$/#
    #expect(loaded.contains(installation.folder.path + "/prefix/bin/../lib/libswiftCore.so"))
    #expect(loaded.contains { $0.wholeMatch(of: heldFolder) != nil }, "\(loaded)")
    let system = ["/lib/", "/lib64/", "/usr/lib/"]
    #expect(
      loaded.filter { file in
        !system.contains { file.hasPrefix($0) } && file.wholeMatch(of: heldFolder) == nil
      }
      .allSatisfy { $0.hasPrefix(installation.folder.path + "/") })
  }

  @Test func refusesTheDebugBuildOfThatPluginAndSaysToBuildForRelease() throws {
    let installation = try Installation()
    let folder = installation.debugFolder
    let refusal =
      "open: plugin 'Healthy' (\(folder)/libHealthy.so) could not be loaded: it was built in debug: it needs "
      + "libswiftSwiftOnoneSupport.so, the Swift runtime's library for unoptimised code, which this host, "
      + "built for release, does not load, and which neither its run path ($ORIGIN, with $ORIGIN being "
      + "\(folder)) nor the system's folders provide — build the plugin for release (swift build -c release, "
      + "and name its .build/release library in the manifest), or copy libswiftSwiftOnoneSupport.so from the "
      + "usr/lib/swift/linux folder of the toolchain it was built with into \(folder) (dlerror: "
      + "libswiftSwiftOnoneSupport.so: cannot open shared object file: No such file or directory)"

    let run = try installation.run(["run", "--manifest", installation.debug])
    #expect(run.stdout == "")
    #expect(
      run.stderrLines == [
        "plugboard: " + refusal, "plugboard: the deployment has 1 problem; the application was not run",
      ])
    #expect(run.status == ExitStatus.runBroken.rawValue)

    let check = try installation.run(["check", "--manifest", installation.debug])
    #expect(check.stdout.contains("\n  " + refusal + "\n"))
    #expect(check.stdout.hasSuffix("check: 2 errors, 0 warnings; the deployment is broken\n"))
    #expect(check.status == ExitStatus.problems.rawValue)
  }

  /// With `"requirePins": true` the unpinned debug plugin is refused for
  /// being a debug build, not for lacking a pin: pinning it would not make
  /// it load.
  @Test func blamesTheDebugBuildBeforeTheMissingPin() throws {
    let installation = try Installation()
    let folder = installation.debugFolder
    let manifest = try installation.folder.write(
      "deployment/debug-pins.json",
      #"{ "formatVersion": 1, "requirePins": true, "plugins": [ { "name": "Healthy", "path": "debug/libHealthy.so" } ] }"#
    )
    let run = try installation.run(["run", "--manifest", manifest])
    #expect(run.status == ExitStatus.runBroken.rawValue)
    let refusal: String =
      "plugboard: open: plugin 'Healthy' (\(folder)/libHealthy.so) could not be loaded: it was built in "
      + "debug: it needs libswiftSwiftOnoneSupport.so, the Swift runtime's library for unoptimised code, which "
      + "this host, built for release, does not load, and which neither its run path ($ORIGIN, with $ORIGIN "
      + "being \(folder)) nor the system's folders provide — build the plugin for release (swift build -c "
      + "release, and name its .build/release library in the manifest), or copy libswiftSwiftOnoneSupport.so "
      + "from the usr/lib/swift/linux folder of the toolchain it was built with into \(folder) (it was not "
      + "opened)"
    #expect(run.stderrLines.first == refusal)
  }
}
