import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// Shipping release builds (Docs/shipping.md, "Building for release"): a
/// debug plugin under a host built for release is told what to do, and
/// `Scripts/build-deployment --release` writes a manifest that names the
/// release build.
@Suite(.blocking) struct ReleaseBuildTests {
  /// A debug build needs the runtime's `libswiftSwiftOnoneSupport.so`, which
  /// a release host does not load and a machine without the toolchain does
  /// not have: the loader's "cannot open shared object file" becomes the
  /// two ways out. (The message alone; `ReleaseHostTests` sees an installed
  /// release host say it.)
  @Test func aDebugPluginUnderAReleaseHostIsToldToBuildForRelease() {
    let needs = PluginNeeds(
      file: "/srv/plugins/libWeather.so", folder: "/srv/plugins",
      runPath: ["/opt/swift/usr/lib/swift/linux", "$ORIGIN"],
      needs: [
        .init(name: "libswiftSwiftOnoneSupport.so", own: nil, inSystemFolder: false, loaded: nil, loader: nil)
      ])
    let dlerror = "libswiftSwiftOnoneSupport.so: cannot open shared object file: No such file or directory"
    #expect(
      LoadFailureExplanation.detail(dlerror, file: needs.file, needs: needs)
        == "could not be loaded: it was built in debug: it needs libswiftSwiftOnoneSupport.so, the Swift "
        + "runtime's library for unoptimised code, which this host, built for release, does not load, and "
        + "which neither its run path (/opt/swift/usr/lib/swift/linux:$ORIGIN, with $ORIGIN being "
        + "/srv/plugins) nor the system's folders provide — build the plugin for release (swift build -c "
        + "release, and name its .build/release library in the manifest), or copy libswiftSwiftOnoneSupport.so "
        + "from the usr/lib/swift/linux folder of the toolchain it was built with into /srv/plugins (dlerror: "
        + "\(dlerror))")
  }

  /// Under `requirePins`, a debug plugin whose run path finds the runtime's
  /// debug library only in a toolchain outside this host's runtime folder
  /// (an installed release host on a machine with the toolchain) cannot
  /// load: no pin holds a library found there. It is told it was built in
  /// debug, not to pin it, which would not make it load.
  @Test func aDebugPluginFindingTheToolchainWhereNoPinHoldsItIsToldToBuildForRelease() throws {
    let toolchain = "/srv/toolchains/swift/usr/lib/swift/linux"
    let needs = PluginNeeds(
      file: "/srv/plugins/libWeather.so", folder: "/srv/plugins", runPath: [toolchain, "$ORIGIN"],
      needs: [
        .init(
          name: "libswiftSwiftOnoneSupport.so", own: toolchain + "/libswiftSwiftOnoneSupport.so",
          inSystemFolder: false, loaded: nil, loader: nil)
      ])
    #expect(
      LoadFailureExplanation.debugBuildProblem(needs)
        == "could not be loaded: it was built in debug: it needs libswiftSwiftOnoneSupport.so, the Swift "
        + "runtime's library for unoptimised code, which this host, built for release, does not load, and "
        + "which its run path finds only in \(toolchain), outside this host's runtime folder and the plugin's "
        + "own, where no pin can hold it, so that \"requirePins\" loads it nowhere — build the plugin for "
        + "release (swift build -c release, and name its .build/release library in the manifest), or copy "
        + "libswiftSwiftOnoneSupport.so from \(toolchain) into /srv/plugins and pin it (plugboard pin)")
    // Beside the plugin, a pin holds it: the pinning message applies.
    let beside = PluginNeeds(
      file: needs.file, folder: needs.folder, runPath: needs.runPath,
      needs: [
        .init(
          name: "libswiftSwiftOnoneSupport.so", own: "/srv/plugins/libswiftSwiftOnoneSupport.so",
          inSystemFolder: false, loaded: nil, loader: nil)
      ])
    #expect(LoadFailureExplanation.debugBuildProblem(beside) == nil)
  }

  /// `--release --manifest-only` writes the release build's manifest from
  /// plugins.json, run on a copy of the script and manifest (the script
  /// works in its checkout's root): every library named in `.build/release`,
  /// the drop-in folder plugins.release.d linking the release IssueList, and
  /// nothing else changed.
  @Test func theReleaseManifestNamesTheReleaseBuild() throws {
    let checkout = try TemporaryDirectory()
    let root = BuildProducts.packageRoot
    try FileManager.default.createDirectory(
      atPath: checkout.path + "/Scripts", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: root + "/Scripts/build-deployment", toPath: checkout.path + "/Scripts/build-deployment")
    try FileManager.default.copyItem(atPath: root + "/plugins.json", toPath: checkout.path + "/plugins.json")

    let result = try Subprocess.run(
      checkout.path + "/Scripts/build-deployment", ["--release", "--manifest-only"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "Wrote plugins.release.json and plugins.release.d/ (nothing built).\n")

    let debug = try ManifestReader.read(path: checkout.path + "/plugins.json", origin: .defaultLocation).get()
    let release = try ManifestReader.read(
      path: checkout.path + "/plugins.release.json", origin: .defaultLocation
    )
    .get()
    #expect(
      release.plugins.map(\.path) == [
        ".build/release/libNetworking.so", ".build/release/libKeychain.so", ".build/release/libAuth.so",
        ".build/release/libAuthMock.so", ".build/release/libLogin.so", ".build/release/libShell.so",
        ".build/release/libTiming.so", "Plugins/ThirdParty/Analytics/.build/release/libAnalytics.so",
      ])
    #expect(release.pluginFolders == ["plugins.release.d"])
    #expect(release.plugins.map(\.name) == debug.plugins.map(\.name))
    #expect(release.profiles == debug.profiles)
    #expect(release.activeProfile == debug.activeProfile)
    #expect(
      try FileManager.default.destinationOfSymbolicLink(
        atPath: checkout.path + "/plugins.release.d/libIssueList.so")
        == "../.build/release/libIssueList.so")
  }

  /// A pin is the digest of one file: the debug library's never matches
  /// the release one, so the release manifest leaves the pins out and
  /// says how to pin the release build.
  /// `--release --manifest-only` run on a copy of the script with
  /// `pinned` as its plugins.json: it must leave the pins out and say how
  /// to pin the release build. Returns the release manifest it wrote.
  private func releaseManifest(from pinned: String) throws -> Manifest {
    let checkout = try TemporaryDirectory()
    let root = BuildProducts.packageRoot
    try FileManager.default.createDirectory(
      atPath: checkout.path + "/Scripts", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: root + "/Scripts/build-deployment", toPath: checkout.path + "/Scripts/build-deployment")
    _ = try checkout.write("plugins.json", pinned)

    let result = try Subprocess.run(
      checkout.path + "/Scripts/build-deployment", ["--release", "--manifest-only"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr
        == "Wrote plugins.release.json and plugins.release.d/ (nothing built).\n"
        + "plugins.release.json: the pins of plugins.json were left out (they are digests of the debug "
        + "libraries); pin the release build with: .build/release/plugboard pin --manifest plugins.release.json\n"
    )
    let release = try ManifestReader.read(
      path: checkout.path + "/plugins.release.json", origin: .defaultLocation
    )
    .get()
    return release
  }

  @Test func theReleaseManifestLeavesTheDebugPinsOut() throws {
    let root = BuildProducts.packageRoot
    let digest = String(repeating: "ab", count: 32)
    let pinned = try String(contentsOfFile: root + "/plugins.json", encoding: .utf8)
      .replacingOccurrences(
        of: #""path": ".build/debug/libKeychain.so""#,
        with: #""path": ".build/debug/libKeychain.so", "sha256": "\#(digest)""#
      )
      .replacingOccurrences(
        of: #"{ "name": "Login","#, with: #"{ "sha256": "\#(digest)", "name": "Login","#)
    #expect(pinned.components(separatedBy: digest).count == 3)
    let release = try releaseManifest(from: pinned)
    #expect(release.plugins.allSatisfy { $0.sha256 == nil })
    #expect(release.plugins.map(\.name).contains("Login"))
  }

  /// The manifest exactly as `plugboard pin` writes it, every plugin and
  /// the contracts library beside them pinned with `requirePins`: a pin on
  /// a line of its own after a multi-line object, and `libraryPins` naming
  /// the library in SwiftPM's triple folder. The release manifest leaves
  /// both out, keeps `requirePins`, and says to pin the release build, which
  /// is the documented path (Docs/shipping.md, "Building for release").
  @Test func aManifestPlugboardPinWroteGetsAnUnpinnedReleaseManifest() throws {
    let root = BuildProducts.packageRoot
    let text = try String(contentsOfFile: root + "/plugins.json", encoding: .utf8)
    let count = try #require(ManifestPinEditor.entryCount(in: Array(text.utf8)))
    let digests = Dictionary(
      uniqueKeysWithValues: (0..<count).map { ($0, String(repeating: "ab", count: 32)) })
    let pinned = try #require(ManifestPinEditor.apply(digests, to: Array(text.utf8)))
    let contracts = ".build/x86_64-unknown-linux-gnu/debug/libAppContracts.so"
    let manifest = String(decoding: pinned, as: UTF8.self)
      .replacingOccurrences(
        of: "  \"plugins\": [",
        with:
          "  \"requirePins\": true,\n  \"libraryPins\": {\n    \"\(contracts)\": \"\(String(repeating: "cd", count: 32))\"\n"
          + "  },\n  \"plugins\": [")
    #expect(manifest.contains("},\n      \"sha256\""))
    let release = try releaseManifest(from: manifest)
    #expect(release.plugins.count == count)
    #expect(release.plugins.allSatisfy { $0.sha256 == nil })
    #expect(release.libraryPins.isEmpty)
    #expect(release.requirePins)
    #expect(release.plugins.allSatisfy { !$0.path.contains("/debug/") })
  }

  @Test func manifestOnlyIsForTheReleaseBuild() throws {
    let result = try Subprocess.run(
      BuildProducts.packageRoot + "/Scripts/build-deployment", ["--manifest-only"])
    #expect(result.status == 2)
    #expect(result.stderr == "usage: Scripts/build-deployment [--all] [--release [--manifest-only]]\n")
  }
}
