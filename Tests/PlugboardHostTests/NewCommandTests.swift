import AppContracts
import Foundation
import PlugboardKit
import PlugboardTestSupport
import Testing

@testable import PlugboardCLI
@testable import PlugboardEngine

/// `plugboard new`: the package it makes builds with `swift build` and
/// loads into the sample deployment unchanged, with a clean first check.
@Suite(.blocking) struct NewCommandTests {
  /// The package's build folder: one per stamp of PlugboardKit and of the
  /// contracts, beside this build's products, so later runs are incremental
  /// (as ``ThirdPartyBuild`` does for Analytics).
  private static var scratch: String {
    let contracts = String(AppContracts._plugboardStamp_AppContracts(), radix: 16)
    return BuildProducts.scratch + "/plugboard-tests-new-\(PlugboardBuild.sourceFingerprint)-\(contracts)"
  }

  @Test func theNewPluginBuildsAndLoadsIntoTheSampleWithoutWarnings() throws {
    let folder = try TemporaryDirectory()
    let package = folder.path + "/Greetings"
    let created = try Subprocess.plugboard(
      ["new", "Greetings", "--path", package, "--sdk", BuildProducts.packageRoot])
    #expect(created.status == 0, "\(created.stderr)")
    #expect(created.stdout.hasPrefix("Created the plugin package Greetings in \(package)\n"))

    let build = try Subprocess.run(
      "/usr/bin/env", ["swift", "build", "--package-path", package, "--scratch-path", Self.scratch])
    try #require(build.status == 0, "swift build failed:\n\(build.stdout)\(build.stderr)")
    let library = URL(fileURLWithPath: Self.scratch + "/debug/libGreetings.so").resolvingSymlinksInPath().path

    let analytics = try ThirdPartyBuild.analytics.get()
    let sample = SampleManifest.text(analytics: analytics)
    let withGreetings = sample.replacingOccurrences(
      of: #"{ "name": "Analytics", "path": "\#(analytics)" }"#,
      with: #"{ "name": "Analytics", "path": "\#(analytics)" },"# + "\n"
        + #"    { "name": "Greetings", "path": "\#(library)" }"#)
    try #require(withGreetings != sample)
    let manifest = try folder.write("plugins.json", withGreetings)

    let check = try Subprocess.plugboard(["check", "--manifest", manifest])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    #expect(
      check.stdout.contains("'live' healthy (0 errors, 0 warnings), 'mock' healthy (0 errors, 0 warnings)"))
    let list = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(list.stdout.contains("Greetings 0.1.0  \(library)\n"))
    #expect(list.stdout.contains("Greetings.GreetingsGreeter"))
  }

  /// Made outside the folder of the deployment's `plugins.json` (the
  /// current folder), the plugin needs a plugin root: the hint says so, and
  /// what it says loads the plugin.
  @Test func theLoadItHintWorksForAPluginOutsideTheManifestsFolder() throws {
    let deployment = try TemporaryDirectory()
    let analytics = try ThirdPartyBuild.analytics.get()
    let manifest = try deployment.write("plugins.json", SampleManifest.text(analytics: analytics))
    let elsewhere = try TemporaryDirectory()
    let package = elsewhere.path + "/Greetings"
    let created = try Subprocess.plugboard(
      ["new", "Greetings", "--path", package, "--sdk", BuildProducts.packageRoot], in: deployment.path)
    #expect(created.status == 0, "\(created.stderr)")
    let library = package + "/.build/debug/libGreetings.so"
    #expect(
      created.stdout.split(separator: "\n").last.map(String.init)
        == #"Load it:    in \#(manifest), add "\#(package)" to "pluginRoots" and { "name": "Greetings", "path": "#
        + #""\#(library)" } to "plugins", then run plugboard check"#)

    // As `swift build --package-path` would leave it, from the shared build.
    let build = try Subprocess.run(
      "/usr/bin/env", ["swift", "build", "--package-path", package, "--scratch-path", Self.scratch])
    try #require(build.status == 0, "swift build failed:\n\(build.stdout)\(build.stderr)")
    try FileManager.default.createDirectory(
      atPath: package + "/.build/debug", withIntermediateDirectories: true)
    for name in ["libGreetings.so", "libAppContracts.so"] {
      try FileManager.default.copyItem(
        atPath: Self.scratch + "/debug/" + name, toPath: package + "/.build/debug/" + name)
    }
    let text = SampleManifest.text(analytics: analytics)
      .replacingOccurrences(of: #""pluginRoots": ["#, with: #""pluginRoots": ["\#(package)", "#)
      .replacingOccurrences(
        of: #"{ "name": "Analytics", "path": "\#(analytics)" }"#,
        with:
          #"{ "name": "Analytics", "path": "\#(analytics)" }, { "name": "Greetings", "path": "\#(library)" }"#
      )
    try text.write(toFile: manifest, atomically: true, encoding: .utf8)
    let check = try Subprocess.plugboard(["check"], in: deployment.path)
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    #expect(check.stdout.contains("9 plugins (8 loaded)"))
  }

  /// Inside the manifest's folder, the path is relative and no root is needed.
  @Test func theLoadItHintIsRelativeInsideTheManifestsFolder() throws {
    let deployment = try TemporaryDirectory()
    _ = try deployment.write("plugins.json", "{}")
    let created = try Subprocess.plugboard(
      ["new", "Greetings", "--path", "Plugins/Greetings", "--sdk", BuildProducts.packageRoot],
      in: deployment.path)
    #expect(created.status == 0, "\(created.stderr)")
    #expect(
      created.stdout.split(separator: "\n").last.map(String.init)
        == #"Load it:    add { "name": "Greetings", "path": "Plugins/Greetings/.build/debug/libGreetings.so" } "#
        + #"to "plugins" in plugins.json, then run plugboard check"#)
  }

  /// Besides the debug build, the output and the README say how to build
  /// for a host installed without the toolchain (Docs/shipping.md).
  @Test func theReleaseBuildIsNamedBesideTheDebugOne() throws {
    let deployment = try TemporaryDirectory()
    let created = try Subprocess.plugboard(
      ["new", "Greetings", "--path", "Greetings", "--sdk", BuildProducts.packageRoot], in: deployment.path)
    #expect(created.status == 0, "\(created.stderr)")
    let package = deployment.path + "/Greetings"
    #expect(
      created.stdout.split(separator: "\n").dropFirst(2).first.map(String.init)
        == "Release:    swift build -c release --package-path \(package), for a host installed without the "
        + "toolchain; then load \(package)/.build/release/libGreetings.so")
    let readme = try String(contentsOfFile: package + "/README.md", encoding: .utf8)
    #expect(readme.contains("```sh\nswift build -c release\n```\n"))
    #expect(
      readme.contains(#"{ "name": "Greetings", "path": "<this folder>/.build/release/libGreetings.so" }"#))
  }

  /// The README's signing step signs the release library in the namespace
  /// the host verifies, checks it with `plugboard verify`, and names the
  /// line the operator adds.
  @Test func theReadmeSaysHowToSignTheReleaseBuild() throws {
    let deployment = try TemporaryDirectory()
    let created = try Subprocess.plugboard(
      ["new", "Greetings", "--path", "Greetings", "--sdk", BuildProducts.packageRoot], in: deployment.path)
    #expect(created.status == 0, "\(created.stderr)")
    let readme = try String(contentsOfFile: deployment.path + "/Greetings/README.md", encoding: .utf8)
    #expect(
      readme.contains(
        "ssh-keygen -Y sign -n plugboard-plugin -f ~/.ssh/release_ed25519 .build/release/libGreetings.so\n"
          + "plugboard verify --allowed-signers allowed_signers .build/release/libGreetings.so\n"))
    #expect(readme.contains(#"Greetings namespaces="plugboard-plugin" ssh-ed25519 AAAA… your team"#))
  }

  @Test(arguments: [
    (
      "weather",
      "a plugin's name is a Swift type name: a capital letter, then letters, digits or '_' "
        + "(for example 'Weather'); found 'weather'"
    ),
    (
      "Wea-ther",
      "a plugin's name is a Swift type name: a capital letter, then letters, digits or '_' "
        + "(for example 'Weather'); found 'Wea-ther'"
    ),
    (String(repeating: "A", count: 65), "a plugin's name has 1 to 64 characters; found 65"),
  ])
  func aNameThatIsNoTypeNameIsMisuse(name: String, message: String) throws {
    let folder = try TemporaryDirectory()
    let result = try Subprocess.plugboard(["new", name, "--sdk", BuildProducts.packageRoot], in: folder.path)
    #expect(result.status == 2)
    #expect(result.stderrLines == ["plugboard: \(message)", "Run 'plugboard new --help' for usage."])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func theSDKAndTheContractsCanBeDependedOnByVersion() throws {
    let folder = try TemporaryDirectory()
    let kit = "https://git.example.com/sdk/PlugboardKit"
    let contracts = "https://git.example.com/sdk/AppContracts.git"
    let result = try Subprocess.plugboard(
      ["new", "Greetings", "--kit", kit + "@1.2.0", "--contracts", contracts + "@1.0.0"], in: folder.path)
    #expect(result.status == 0, "\(result.stderr)")
    let manifest = try String(contentsOfFile: folder.path + "/Greetings/Package.swift", encoding: .utf8)
    #expect(manifest.contains(#".package(url: "\#(kit)", exact: "1.2.0"),"#))
    #expect(manifest.contains(#".package(url: "\#(contracts)", exact: "1.0.0"),"#))
    #expect(manifest.contains(#".product(name: "PlugboardKit", package: "PlugboardKit"),"#))
    #expect(manifest.contains(#".product(name: "AppContracts", package: "AppContracts"),"#))
    #expect(manifest.contains(#"plugins: [.plugin(name: "PlugboardStamp", package: "PlugboardKit")]"#))
  }

  @Test(arguments: [
    (
      ["--kit", "https://example.com/PlugboardKit@1.0.0"],
      "--kit and --contracts go together: the plugin depends on both"
    ),
    (
      [
        "--kit", "https://example.com/PlugboardKit@1.0", "--contracts",
        "https://example.com/AppContracts@1.0.0",
      ],
      "--kit takes URL@VERSION, a repository and its exact version, such as "
        + "https://git.example.com/sdk/PlugboardKit@1.0.0; found 'https://example.com/PlugboardKit@1.0'"
    ),
    (
      ["--kit", "PlugboardKit@1.0.0", "--contracts", "https://example.com/AppContracts@1.0.0"],
      "--kit takes URL@VERSION, a repository and its exact version, such as "
        + "https://git.example.com/sdk/PlugboardKit@1.0.0; found 'PlugboardKit@1.0.0'"
    ),
    (
      [
        "--sdk", "/srv/plugboard", "--kit", "https://example.com/PlugboardKit@1.0.0", "--contracts",
        "https://example.com/AppContracts@1.0.0",
      ],
      "--sdk names a checkout to depend on by path; --kit and --contracts name repositories to depend on by "
        + "version: give one or the other"
    ),
  ])
  func dependingByVersionNeedsBothRepositoriesAndExactVersions(arguments: [String], message: String) throws {
    let folder = try TemporaryDirectory()
    let result = try Subprocess.plugboard(["new", "Greetings"] + arguments, in: folder.path)
    #expect(result.status == 2)
    #expect(result.stderrLines == ["plugboard: \(message)", "Run 'plugboard new --help' for usage."])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  /// As a plugin vendor meets it: the SDK and the contracts exported as
  /// repositories (``ExportedSDKBuild``), a package made by `plugboard new`
  /// that depends on both by version, built with `swift build` outside this
  /// repository, and loaded by this build's `plugboard`.
  @Test func aPluginMadeAgainstTheExportedSDKByVersionBuildsAndLoads() throws {
    let exported = try ExportedSDKBuild.products.get()
    let folder = URL(fileURLWithPath: exported.repository).deletingLastPathComponent().path
    let package = folder + "/NewByVersion"
    try? FileManager.default.removeItem(atPath: package)
    let created = try Subprocess.plugboard([
      "new", "Greetings", "--path", package,
      "--kit", "file://\(exported.repository)@\(ExportedSDKBuild.version)",
      "--contracts", "file://\(exported.contracts)@\(ExportedSDKBuild.contractsVersion)",
    ])
    #expect(created.status == 0, "\(created.stderr)")
    let build = try Subprocess.run(
      "/usr/bin/env", ["swift", "build", "--package-path", package, "--scratch-path", folder + "/new-build"])
    try #require(build.status == 0, "swift build failed:\n\(build.stdout)\(build.stderr)")
    let library = URL(fileURLWithPath: folder + "/new-build/debug/libGreetings.so").resolvingSymlinksInPath()
      .path
    let manifest = try TemporaryDirectory()
    let written = try manifest.writeManifest([("Greetings", library)])
    let list = try Subprocess.plugboard(["list", "--manifest", written])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("Greetings 0.1.0  \(library)\n"))
  }

  /// What another user could change before the printed `swift build`
  /// evaluates `Package.swift` (as root, often) is refused, and nothing is
  /// written: an empty folder someone else owns, one others can write, and
  /// one that lies in a folder others can write.
  @Test(
    .enabled(if: getuid() == 0, "needs root, to give a folder to another user"),
    arguments: ["owned by nobody", "writable by others", "in a folder others can write"])
  func aFolderSomeoneElseCanChangeIsRefused(case: String) throws {
    let outer = try TemporaryDirectory()
    let folder = outer.path + "/Greetings"
    let stake =
      "change the package before swift build evaluates its Package.swift, and so run code as whoever builds it"
    let expected: String
    switch `case` {
    case "owned by nobody":
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      #expect(chown(folder, OtherUser.uid, OtherUser.gid) == 0)
      expected =
        "\(folder) is owned by uid 65534, neither root nor the user running plugboard (uid 0); its owner can "
        + "\(stake) — make root or yourself its owner"
    case "writable by others":
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      #expect(chmod(folder, 0o777) == 0)
      expected =
        "\(folder) is writable by group and others (mode 0777, owner uid 0); anyone who can write it can "
        + "\(stake) — remove the write permission: chmod go-w \(folder)"
    default:
      #expect(chmod(outer.path, 0o777) == 0)
      expected =
        "\(folder) lies in the folder \(outer.path), which is writable by group and others (mode 0777, owner "
        + "uid 0); anyone who can write there can replace the package — chmod go-w \(outer.path)"
    }
    let result = try Subprocess.plugboard([
      "new", "Greetings", "--path", folder, "--sdk", BuildProducts.packageRoot,
    ])
    #expect(result.status == 1)
    #expect(result.stderrLines == ["plugboard: new: \(expected); nothing was written"])
    #expect((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] == [])
  }

  @Test func aFolderInUseIsLeftAlone() throws {
    let folder = try TemporaryDirectory()
    try folder.write("notes.txt", "mine")
    let result = try Subprocess.plugboard([
      "new", "Greetings", "--path", folder.path, "--sdk", BuildProducts.packageRoot,
    ])
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: new: \(folder.path) already exists and is not empty; nothing was written"
      ])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
  }

  @Test func withoutTheSDKNothingIsWritten() throws {
    let folder = try TemporaryDirectory()
    let result = try Subprocess.plugboard(["new", "Greetings"], in: folder.path)
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: new: cannot find the Plugboard SDK (a folder holding Kit/ and Plugins/Contracts/) above "
          + "\(folder.path)/Greetings or the current folder; name the checkout with --sdk DIR"
      ])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func theSDKIsFoundAboveTheNewFolderByARelativePath() throws {
    let folder = try TemporaryDirectory()
    try folder.writeCheckoutLayout()
    let result = try Subprocess.plugboard(
      ["new", "Weather", "--path", "Plugins/ThirdParty/Weather"], in: folder.path)
    #expect(result.status == 0, "\(result.stderr)")
    let manifest = try String(
      contentsOfFile: folder.path + "/Plugins/ThirdParty/Weather/Package.swift", encoding: .utf8)
    #expect(manifest.contains(#".package(path: "../../../Kit"),"#))
    #expect(manifest.contains(#".package(path: "../../Contracts"),"#))
  }

  @Test func relativePaths() {
    #expect(NewCommand.relative("/a/b/Kit", from: "/a/b/c/d") == "../../Kit")
    #expect(NewCommand.relative("/a/Kit", from: "/a") == "Kit")
    #expect(NewCommand.relative("/work/Kit", from: "/tmp/x") == "/work/Kit")
  }
}
