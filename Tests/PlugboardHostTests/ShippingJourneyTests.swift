import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// The journey of Docs/shipping.md, as a new user follows it to the letter,
/// on a machine without the Swift toolchain: the release host installed
/// with `Scripts/install-host`; a plugin package made by that host's
/// `plugboard new` against the SDK and the contracts exported by version,
/// outside this repository, built with `swift build -c release`; shipped
/// with its contracts library beside the sample's release plugins, all as
/// built (no run path rewritten); pinned by `plugboard pin` alone, with
/// `"requirePins": true`; then run, with the toolchain's runtime folder out
/// of reach (``HiddenToolchain``), so every Swift library comes from the
/// installed host.
///
/// It needs the release products `.ci/run` builds (``ReleaseProducts``), and
/// root, to hide the toolchain.
@Suite(
  .enabled(if: ReleaseProducts.directory != nil, ReleaseProducts.missing),
  .enabled(if: HiddenToolchain.unavailable == nil, Comment(rawValue: HiddenToolchain.unavailable ?? "")),
  .blocking)
struct ShippingJourneyTests {
  /// The sample's release plugins the deployment ships, as built.
  static let samplePlugins = ["Networking", "Keychain", "Auth", "Login", "IssueList", "Shell"]

  @Test func aReleasePluginBuiltOutsideTheRepositoryRunsPinnedUnderTheInstalledHost() throws {
    let exports = try ExportedSDKBuild.exports.get()
    let folder = try TemporaryDirectory()
    let prefix = folder.path + "/prefix"
    let plugboard = prefix + "/bin/plugboard"
    let products = URL(fileURLWithPath: try ReleaseProducts.path("plugboard")).deletingLastPathComponent()
      .path
    let installed = try Subprocess.run(
      BuildProducts.packageRoot + "/Scripts/install-host", ["--from", products, prefix])
    try #require(installed.status == 0, "\(installed.stderr)")

    // The vendor's side: a package made by the installed host, by version,
    // built for release as shipping.md says; its build folder kept beside
    // the exports, so a later run builds incrementally.
    let package = folder.path + "/Greetings"
    let created = try Subprocess.run(
      plugboard,
      [
        "new", "Greetings", "--path", package, "--kit",
        "file://\(exports.repository)@\(ExportedSDKBuild.version)", "--contracts",
        "file://\(exports.contracts)@\(ExportedSDKBuild.contractsVersion)",
      ])
    try #require(created.status == 0, "\(created.stderr)")
    let scratch = exports.folder + "/shipped-greetings-build"
    let build = try Subprocess.run(
      "/usr/bin/env",
      ["swift", "build", "-c", "release", "--package-path", package, "--scratch-path", scratch])
    try #require(build.status == 0, "swift build -c release failed:\n\(build.stdout)\(build.stderr)")
    let built = scratch + "/release"

    // The operator's side: the plugins and one contracts library in a
    // folder of their own, copied as they were built.
    let deployment = folder.path + "/deployment"
    try FileManager.default.createDirectory(atPath: deployment, withIntermediateDirectories: true)
    for name in Self.samplePlugins {
      try FileManager.default.copyItem(
        atPath: try ReleaseProducts.path("lib\(name).so"), toPath: deployment + "/lib\(name).so")
    }
    for library in ["libGreetings.so", "libAppContracts.so"] {
      try FileManager.default.copyItem(atPath: built + "/" + library, toPath: deployment + "/" + library)
    }
    let entries = (Self.samplePlugins + ["Greetings"]).map { name in
      let config =
        name == "Networking"
        ? #", "config": { "baseURL": "https://issues.example.com/api", "timeout": 5 }"# : ""
      return #"{ "name": "\#(name)", "path": "lib\#(name).so"\#(config) }"#
    }
    let manifest = try folder.write(
      "deployment/plugins.json",
      #"{ "formatVersion": 1, "requirePins": true, "activeProfile": "live", "#
        + #""profiles": { "live": { "description": "the real implementations" } }, "plugins": [ "#
        + entries.joined(separator: ", ") + " ] }")

    let unpinned = try HiddenToolchain.run(plugboard, ["run", "--manifest", manifest])
    #expect(unpinned.status == ExitStatus.runBroken.rawValue)
    #expect(unpinned.stderr.contains("has no pin and the manifest sets \"requirePins\": true"))

    let pin = try HiddenToolchain.run(plugboard, ["pin", "--manifest", manifest])
    #expect(pin.status == 0, "\(pin.stderr)")
    #expect(pin.stderr == "")
    #expect(
      pin.stdoutLines.last
        == "wrote 8 pins to \(manifest): 8 new, 0 changed, 0 unchanged")

    let run = try HiddenToolchain.run(plugboard, ["run", "--manifest", manifest])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == KitEvolutionTests.output)
    #expect(run.stderr == "")

    let check = try HiddenToolchain.run(plugboard, ["check", "--manifest", manifest])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    #expect(
      check.stdout
        == "Checking \(manifest) in profile 'live': 7 plugins (7 loaded), 13 registrations\n\n"
        + "check: 0 errors, 0 warnings; the deployment is healthy in profile 'live'\n")

    // Every Swift library initialised came from the installed host: the
    // plugins' run path entry into the toolchain names nothing there.
    let traced = try HiddenToolchain.run(
      plugboard, ["run", "--manifest", manifest], environment: LoaderTrace.environment)
    #expect(traced.status == 0)
    let loaded = LoaderTrace.initialised(traced)
    #expect(loaded.contains(prefix + "/bin/../lib/libswiftCore.so"))
    let system = ["/lib/", "/lib64/", "/usr/lib/"]
    #expect(
      loaded.filter { file in !system.contains { file.hasPrefix($0) } }.allSatisfy {
        $0.hasPrefix(folder.path + "/") || $0.hasPrefix("/proc/self/fd/")
      }, "\(loaded)")
  }
}
