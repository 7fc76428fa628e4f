import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// What the dynamic loader maps for a plugin besides the plugin itself is
/// vetted too (issue 23): a neighbour library others can write, or a
/// `glibc-hwcaps` subfolder the loader searches first, is refused before
/// `dlopen`, naming the file or folder, its mode and owner, and the fix.
@Suite(.blocking) struct LoadPathVettingTests {
  /// A folder holding the Networking plugin and the neighbours its run
  /// path (`$ORIGIN`) finds, and a manifest listing it.
  private struct Deployment {
    let folder = try? TemporaryDirectory()
    var path: String { folder?.path ?? "/nonexistent" }

    func prepare() throws -> String {
      for product in ["Networking", "AppContracts", "PlugboardKit"] {
        try FileManager.default.copyItem(
          atPath: BuildProducts.library(product), toPath: path + "/lib\(product).so")
      }
      return try #require(folder).writeManifest([("Networking", path + "/libNetworking.so")])
    }

    func run(_ manifest: String) throws -> ProcessResult {
      try Subprocess.plugboard(["run", "--manifest", manifest])
    }
  }

  @Test func theDeploymentLoadsWhenEverythingItMapsIsSafe() throws {
    let deployment = Deployment()
    let manifest = try deployment.prepare()
    let result = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(result.status == 0, "\(result.stderr)")
  }

  @Test func aNeighbourOthersCanWriteIsRefused() throws {
    let deployment = Deployment()
    let manifest = try deployment.prepare()
    let neighbour = deployment.path + "/libAppContracts.so"
    #expect(chmod(neighbour, 0o666) == 0)
    let result = try deployment.run(manifest)
    #expect(result.status == 78)
    let expected: String =
      "plugboard: vet: plugin 'Networking' (\(deployment.path)/libNetworking.so) needs libAppContracts.so, which "
      + "it loads from \(neighbour), which is writable by group and others (mode 0666, owner uid \(geteuid())); "
      + "anyone who can write it can run code in plugboard — remove the write permission: chmod go-w \(neighbour)"
    #expect(result.stderrLines.first == expected)
  }

  @Test func aHardwareCapabilitySubfolderOthersCanWriteIsRefused() throws {
    let deployment = Deployment()
    let manifest = try deployment.prepare()
    let subfolder = deployment.path + "/glibc-hwcaps/x86-64-v2"
    try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: true)
    #expect(chmod(subfolder, 0o777) == 0)
    let result = try deployment.run(manifest)
    #expect(result.status == 78)
    let runPath = try #require(ELFFile(path: deployment.path + "/libNetworking.so").dynamicInfo()?.runPath)
    let expected: String =
      "plugboard: vet: plugin 'Networking' (\(deployment.path)/libNetworking.so) has the run path entry "
      + "\"$ORIGIN\" (\(runPath.joined(separator: ":"))), whose glibc-hwcaps subfolders the dynamic loader "
      + "searches first: a library there lies in the folder \(subfolder), which is writable by group and others "
      + "(mode 0777, owner uid \(geteuid())); anyone who can write there can replace the libraries the plugin "
      + "loads — chmod go-w \(subfolder)"
    #expect(result.stderrLines.first == expected)
  }
}
