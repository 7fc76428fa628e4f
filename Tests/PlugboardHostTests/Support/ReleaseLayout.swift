import Foundation
import PlugboardTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A deployment laid out as releases are shipped: `releases/v1/` (mode
/// 0755) holding copies of built files, and `shared/`, a folder of a given
/// mode where the links a test makes may sit (another user's playground
/// when others can write it). The fixture of the tests that judge links.
struct ReleaseLayout {
  let folder: TemporaryDirectory
  var path: String { folder.path }
  var shared: String { path + "/shared" }
  var release: String { path + "/releases/v1" }

  /// Copies `files` into `releases/v1/` with `cp -p` (by another process,
  /// see LauncherTests: modes kept).
  init(copying files: [String], sharedMode: mode_t) throws {
    folder = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: release, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
    for (created, mode) in [(path + "/releases", mode_t(0o755)), (release, 0o755), (shared, sharedMode)] {
      #expect(chmod(created, mode) == 0)
    }
    for file in files {
      let copied = try Subprocess.run("/bin/cp", ["-p", file, release])
      try #require(copied.status == 0, "\(copied.stderr)")
    }
  }

  /// Makes the link `name` (relative to the layout) lead to `target`.
  func link(_ name: String, to target: String) {
    #expect(symlink(target, path + "/" + name) == 0, "link \(name)")
  }
}
