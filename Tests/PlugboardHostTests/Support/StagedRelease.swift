import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Two releases of the plugin of ``ClosureFixture``, side by side in a
/// fresh folder as a deployment stages them: the vetted one at `live/`,
/// which the manifest names (`live/libChain.so`), and a staged one at
/// `next/`, which a test renames into its place. ``restore()`` puts both
/// back where their fixtures remove them.
struct StagedRelease {
  let top: TemporaryDirectory
  let live: String
  let next: String
  let manifest: String
  private let homes: (vetted: String, staged: String)

  init(vetted: ClosureFixture, staged: ClosureFixture) throws {
    top = try TemporaryDirectory()
    live = top.path + "/live"
    next = top.path + "/next"
    homes = (vetted.path, staged.path)
    guard rename(vetted.path, live) == 0, rename(staged.path, next) == 0 else {
      throw FixtureFailure(
        description: "cannot move the releases into \(top.path): \(String(cString: strerror(errno)))")
    }
    manifest = try top.write(
      "plugins.json",
      #"{ "formatVersion": 1, \#(BuildProducts.rootsMember) "plugins": [ "#
        + #"{ "name": "Chain", "path": "live/libChain.so" } ] }"#)
  }

  /// Each release back in its fixture's folder, whichever name it has now.
  func restore() {
    let vettedNow = FileManager.default.fileExists(atPath: live + "/libZ.so") ? next : live
    let stagedNow = vettedNow == live ? next : live
    _ = rename(vettedNow, homes.vetted)
    _ = rename(stagedNow, homes.staged)
  }
}
