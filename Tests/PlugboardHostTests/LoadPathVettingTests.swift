import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// What the dynamic loader maps for a plugin besides the plugin itself is
/// vetted too: a neighbour library others can write, or a
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

  /// A C library older than 2.37 also searches the legacy `tls/` and
  /// platform subfolders before each run path folder: one others can
  /// write overrides the plugin's neighbours as a `glibc-hwcaps` one does.
  @Test(
    .enabled(
      if: SearchSubfolders.searchesLegacy,
      "this C library (glibc 2.37 or later) searches no legacy subfolder"),
    arguments: ["x86_64", "tls", "haswell", "avx512_1", "tls/haswell", "x86_64/avx512_1"])
  func aLegacySubfolderOthersCanWriteIsRefused(name: String) throws {
    let deployment = Deployment()
    let subfolder = deployment.path + "/" + name
    try expectOriginRefused(deployment, mode: 0o777, of: subfolder) {
      "whose subfolder \(name) the dynamic loader of \(SearchSubfolders.cLibraryName) searches first: a "
        + "library there lies in the folder \(subfolder), which is writable by group and others (mode 0777, "
        + "owner uid \(geteuid())); anyone who can write there can replace the libraries the plugin loads — "
        + "chmod go-w \(subfolder)"
    }
  }

  /// A root-owned sticky folder may hold plugins (no one can replace
  /// root's file there), but not one the loader searches: anyone may add a
  /// library to it, or a `tls/` subfolder searched first.
  @Test(.enabled(if: geteuid() == 0, "needs root: the sticky exception is for root's folders"))
  func aStickyFolderTheLoaderSearchesIsRefused() throws {
    let deployment = Deployment()
    try expectOriginRefused(deployment, mode: 0o1777, of: deployment.path) {
      "whose libraries are trusted only as far as their folders: a library there lies in the folder "
        + "\(deployment.path), which is writable by group and others (mode 1777, owner uid 0) and searched by "
        + "the dynamic loader: its sticky bit stops no one adding a library there, or a subfolder the loader "
        + "searches first — chmod go-w \(deployment.path)"
    }
  }

  /// `list` of the deployment, with the folder `folder` made (when
  /// missing) and given `mode`, refuses the Networking plugin for its
  /// `$ORIGIN` entry: `problem` continues "has the run path entry
  /// "$ORIGIN" (…), ".
  private func expectOriginRefused(
    _ deployment: Deployment, mode: mode_t, of folder: String, problem: () -> String
  ) throws {
    let manifest = try deployment.prepare()
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    #expect(chmod(folder, mode) == 0)
    let result = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(result.status == 1)
    let runPath = try #require(ELFFile(path: deployment.path + "/libNetworking.so").dynamicInfo()?.runPath)
    let expected: String =
      "plugboard: vet: plugin 'Networking' (\(deployment.path)/libNetworking.so) has the run path entry "
      + "\"$ORIGIN\" (\(runPath.joined(separator: ":"))), " + problem()
    #expect(result.stderrLines.contains(expected), "\(result.stderr)")
  }

  /// The Networking plugin copied into the deployment with its run path
  /// made `runPath`, as a plugin built elsewhere names a toolchain folder
  /// this machine lacks.
  private func plugin(runPath: String, in deployment: Deployment) throws -> String {
    let manifest = try deployment.prepare()
    try FileManager.default.removeItem(atPath: deployment.path + "/libNetworking.so")
    try ShippedPlugin.copy(
      BuildProducts.library("Networking"), to: deployment.path + "/libNetworking.so", runPath: runPath)
    return manifest
  }

  @Test("a run path folder missing under folders only root can write is no risk, and loads")
  func aMissingFolderOnlyRootCouldCreateLoads() throws {
    let deployment = Deployment()
    // The toolchain's folder with one letter changed: its parent exists,
    // owned by root and not writable by others, as /opt is where no
    // toolchain was installed.
    let toolchain = try #require(try ShippedPlugin.runPath(BuildProducts.library("Networking")).first)
    let missing = String(toolchain.dropLast()) + (toolchain.hasSuffix("x") ? "y" : "x")
    let manifest = try plugin(runPath: missing + ":$ORIGIN", in: deployment)
    let result = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(result.status == 0, "\(result.stderr)")
  }

  @Test("a run path folder missing where others can create it is refused, naming the folder above")
  func aMissingFolderOthersCouldCreateIsRefused() throws {
    let deployment = Deployment()
    // /tmp is writable by everyone (its sticky bit keeps others' files,
    // not a name nobody has taken yet).
    let missing = "/tmp/pb-missing-\(getpid())"
    let manifest = try plugin(runPath: missing + ":$ORIGIN", in: deployment)
    let result = try deployment.run(manifest)
    #expect(result.status == 78)
    let file = deployment.path + "/libNetworking.so"
    let expected: String =
      "plugboard: vet: plugin 'Networking' (\(file)) has the run path entry \"\(missing)\" (\(missing):$ORIGIN), "
      + "which names \(missing), a folder that does not exist, under /tmp, which is writable by group and "
      + "others (\(LoaderFailureTests.temporaryFolder)), so they can create it: whoever creates it first "
      + "chooses the libraries the plugin loads — rebuild it without that entry (check with: readelf -d "
      + "\(file) | grep PATH)"
    #expect(result.stderrLines.first == expected)
  }
}
