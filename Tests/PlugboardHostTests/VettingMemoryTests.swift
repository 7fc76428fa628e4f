import Foundation
import Testing

@testable import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// ``PluginVetting`` judges the folders above a plugin once per bring-up
/// (``FolderVerdicts``) and the file itself every time: what it remembers
/// must not outlive the bring-up, nor spare a file.
@Suite struct VettingMemoryTests {
  /// Two plugins (empty files: they pass vetting and fail at `open`) in
  /// one folder, and the manifest that lists them.
  private struct Layout {
    let root: TemporaryDirectory
    let folder: String
    let manifest: Manifest

    init() throws {
      root = try TemporaryDirectory()
      folder = root.path + "/plugins"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      try root.write("plugins/libA.so", "")
      try root.write("plugins/libB.so", "")
      manifest = Manifest(
        path: root.path + "/plugins.json",
        plugins: [
          PluginEntry(index: 0, name: "A", path: "plugins/libA.so"),
          PluginEntry(index: 1, name: "B", path: "plugins/libB.so"),
        ])
    }

    /// Each plugin's stage and message, in manifest order.
    func bringUp() -> [String] {
      PluginLoader(progress: ChildSession()).load(manifest).map { outcome in
        guard case .failed(_, let problem) = outcome else { return "not failed" }
        return "\(problem.stage.rawValue): \(problem.message)"
      }
    }
  }

  @Test func aFolderMadeWritableAfterOneBringUpIsRefusedByTheNext() throws {
    let layout = try Layout()
    #expect(layout.bringUp().allSatisfy { $0.hasPrefix("open: ") && $0.hasSuffix("found an empty file") })
    #expect(chmod(layout.folder, 0o777) == 0)
    let refusal = { (name: String) in
      "vet: plugin '\(name)' (\(layout.folder)/lib\(name).so) lies in the folder \(layout.folder), which is "
        + "writable by group and others (mode 0777, owner uid \(geteuid())); anyone who can write there can "
        + "replace the plugin — chmod go-w \(layout.folder)"
    }
    // Both: the verdict on the folder, made for A, holds for B.
    #expect(layout.bringUp() == [refusal("A"), refusal("B")])
    #expect(chmod(layout.folder, 0o755) == 0)
    #expect(layout.bringUp().allSatisfy { $0.hasPrefix("open: ") })
  }

  /// Within one bring-up the folders are judged once, the file each time:
  /// a second plugin made writable is refused even though its folder's
  /// verdict is remembered.
  @Test func theFileIsJudgedAtEveryPluginTheFolderOnce() throws {
    let layout = try Layout()
    let vetting = PluginVetting(manifest: layout.manifest)
    #expect(vetting.permissions(of: layout.folder + "/libA.so") == nil)
    #expect(chmod(layout.folder + "/libB.so", 0o666) == 0)
    #expect(
      vetting.permissions(of: layout.folder + "/libB.so")
        == "is writable by group and others (mode 0666, owner uid \(geteuid())); anyone who can write it can "
        + "run code in plugboard — remove the write permission: chmod go-w \(layout.folder)/libB.so")
    // The folder's verdict is the bring-up's: a later change is seen by
    // the next one, not this one.
    #expect(chmod(layout.folder, 0o777) == 0)
    #expect(vetting.permissions(of: layout.folder + "/libA.so") == nil)
    #expect(PluginVetting(manifest: layout.manifest).permissions(of: layout.folder + "/libA.so") != nil)
  }
}
