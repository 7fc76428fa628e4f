import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// `Scripts/install-host`: the host installed into a prefix, with the
/// libraries it needs beside it, runs the sample from there and still does
/// once the prefix has moved.
@Suite(.blocking) struct InstallHostTests {
  private static let script = BuildProducts.packageRoot + "/Scripts/install-host"

  /// Installs this build's `plugboard` (no build of its own) into `prefix`.
  private func install(into prefix: String) throws -> ProcessResult {
    try Subprocess.run(Self.script, ["--from", BuildProducts.directory, prefix])
  }

  /// The files the dynamic loader initialised for `plugboard --version`, as
  /// `LD_DEBUG=libs` reports them ("calling init: <file>").
  private func librariesLoaded(by plugboard: String) throws -> [String] {
    let result = try Subprocess.run(plugboard, ["--version"], environment: LoaderTrace.environment)
    #expect(result.status == 0)
    return LoaderTrace.initialised(result)
  }

  /// The sample deployment, its plugins in this build's folder, run by the
  /// `plugboard` in `prefix`; and every Swift library that `plugboard` loads
  /// comes from `prefix/lib`, none from the toolchain or the build folder.
  private func expectRunsTheSample(from prefix: String) throws {
    let plugboard = prefix + "/bin/plugboard"
    let loaded = try librariesLoaded(by: plugboard)
    #expect(loaded.contains(prefix + "/bin/../lib/libPlugboardKit.so"))
    #expect(loaded.contains(prefix + "/bin/../lib/libswiftCore.so"))
    let system = ["/lib/", "/lib64/", "/usr/lib/"]
    #expect(
      loaded.filter { file in !system.contains { file.hasPrefix($0) } }.allSatisfy { $0.hasPrefix(prefix) })

    let folder = try TemporaryDirectory()
    let manifest = try folder.write(
      "plugins.json", SampleManifest.text(analytics: try ThirdPartyBuild.analytics.get()))
    let result = try Subprocess.run(plugboard, ["run", "--manifest", manifest])
    #expect(result.stderr == "")
    #expect(result.status == 0)
    #expect(result.stdout == ProfileDeploymentTests.liveOutput)
  }

  @Test func installsARelocatableHostThatRunsTheSample() throws {
    let folder = try TemporaryDirectory()
    let prefix = folder.path + "/prefix"
    let installed = try install(into: prefix)
    #expect(installed.status == 0, "\(installed.stderr)")
    #expect(installed.stdout == "")
    #expect(installed.stderr.hasPrefix("Installed \(HostVersion.line) into \(prefix):\n"))
    #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/plugboard"))
    #expect(FileManager.default.fileExists(atPath: prefix + "/lib/libPlugboardKit.so"))

    try expectRunsTheSample(from: prefix)

    let moved = folder.path + "/elsewhere/moved"
    try FileManager.default.createDirectory(
      atPath: folder.path + "/elsewhere", withIntermediateDirectories: false)
    try FileManager.default.moveItem(atPath: prefix, toPath: moved)
    try expectRunsTheSample(from: moved)
  }

  @Test func installingAgainReplacesTheFilesInPlace() throws {
    let folder = try TemporaryDirectory()
    let prefix = folder.path + "/prefix"
    #expect(try install(into: prefix).status == 0)
    let again = try install(into: prefix)
    #expect(again.status == 0, "\(again.stderr)")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: prefix + "/lib").filter {
      $0.hasPrefix(".")
    }
    #expect(leftovers == [])
    #expect(try Subprocess.run(prefix + "/bin/plugboard", ["--version"]).status == 0)
  }

  @Test func refusesAFolderWithoutPlugboard() throws {
    let folder = try TemporaryDirectory()
    let result = try Subprocess.run(Self.script, ["--from", folder.path, folder.path + "/prefix"])
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "install-host: no plugboard in \(folder.path) (build it with swift build, or leave out --from)"
      ])
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/prefix"))
  }

  /// Operators run the installed host as root: a prefix someone else can
  /// write is refused before anything is copied into it (issue 23).
  @Test func refusesAPrefixOthersCanWrite() throws {
    let folder = try TemporaryDirectory()
    let prefix = folder.path + "/prefix"
    try FileManager.default.createDirectory(atPath: prefix, withIntermediateDirectories: false)
    #expect(chmod(prefix, 0o777) == 0)
    let result = try install(into: prefix)
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "install-host: \(prefix) is writable by group or others (mode 777); whoever can write there could "
          + "replace the installed plugboard — chmod go-w \(prefix), or choose another prefix"
      ])
    #expect(!FileManager.default.fileExists(atPath: prefix + "/bin/plugboard"))
  }
}
