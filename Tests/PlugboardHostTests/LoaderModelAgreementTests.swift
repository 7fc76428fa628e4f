import Foundation
import PlugboardEngine
import PlugboardTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The launcher (C, judging the links to `plugboard-host` before it starts
/// it) and the engine (Swift, judging the links to a plugin before it
/// opens it) follow links with one chase, the loader model's: over the
/// same links each refuses the same link for the same reason, or both
/// follow them. Had each its own chase, a link one of them lets through
/// would choose the code the other vetted.
@Suite(.blocking) struct LoaderModelAgreementTests {
  /// A release folder holding the host, the SDK and a plugin; a copy of
  /// the launcher in `bin/`, whose `plugboard-host` is a link through
  /// `way` to the release's; and `shared/`, a folder of `sharedMode` the
  /// links may sit in.
  private struct Installation {
    let layout: ReleaseLayout
    var folder: TemporaryDirectory { layout.folder }
    var path: String { layout.path }
    var bin: String { path + "/bin" }
    var shared: String { layout.shared }
    var release: String { layout.release }

    init(sharedMode: mode_t) throws {
      layout = try ReleaseLayout(
        copying: [
          BuildProducts.host, BuildProducts.library("PlugboardKit"), BuildProducts.library("Healthy"),
        ],
        sharedMode: sharedMode)
      try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
      #expect(chmod(bin, 0o755) == 0)
      // By cp, not in this process (see LauncherTests).
      let launcher = try Subprocess.run("/bin/cp", ["-p", BuildProducts.plugboard, bin])
      try #require(launcher.status == 0, "\(launcher.stderr)")
    }

    /// Makes the link `name` (relative to the installation) lead to `target`.
    func link(_ name: String, to target: String) { layout.link(name, to: target) }

    /// The launcher's verdict on the way `way` (a folder, relative to the
    /// installation, that leads to the release): `bin/plugboard-host`
    /// leads through it, and `plugboard --version` judges it.
    func launcherVerdict(through way: String) throws -> Verdict {
      link("bin/plugboard-host", to: "../\(way)/plugboard-host")
      let result = try Subprocess.run(bin + "/plugboard", ["--version"])
      return Verdict(status: result.status, line: result.stderrLines.first)
    }

    /// The engine's verdict on the same way: the build's plugboard lists a
    /// manifest naming the plugin through it.
    func engineVerdict(through way: String) throws -> Verdict {
      let manifest = try folder.writeManifest([("Healthy", "\(way)/libHealthy.so")])
      let result = try Subprocess.plugboard(["list", "--manifest", manifest])
      return Verdict(status: result.status, line: result.stderrLines.first)
    }
  }

  /// What a refusal says of the link, in the words both share: "is
  /// reached through the link L, which lies in the folder F, which is
  /// writable by … (mode M, owner uid U)" up to its first ";", or "which
  /// is owned by uid U" up to its first ",": the rest names what is at
  /// stake, in each one's words.
  private struct Verdict: Equatable, CustomStringConvertible {
    let refused: Bool
    let link: String?

    init(status: Int32, line: String?) {
      refused = status != 0
      guard let line, let start = line.range(of: "is reached through the link ") else {
        link = nil
        return
      }
      let rest = line[start.lowerBound...]
      let owned = rest.range(of: ", which is owned by uid ")
      let end = owned.flatMap { rest[$0.upperBound...].firstIndex(of: ",") } ?? rest.firstIndex(of: ";")
      link = String(rest[..<(end ?? rest.endIndex)])
    }

    var description: String { "\(refused ? "refused" : "followed"): \(link ?? "no link named")" }
  }

  private static func writable(_ folder: String, mode: String = "0777") -> String {
    "lies in the folder \(folder), which is writable by group and others (mode \(mode), owner uid \(geteuid()))"
  }

  /// Each fixture: the links, the way through them, and what both must
  /// say of it (nil: both follow it, or neither can).
  @Test(
    arguments: [
      // A link in a folder others can write.
      (mode: 0o777, links: [("shared/current", "../releases/v1")], way: "shared/current", refused: "current"),
      // A chain: its second link lies in that folder.
      (
        mode: 0o777, links: [("current", "shared/hop"), ("shared/hop", "../releases/v1")], way: "current",
        refused: "hop"
      ),
      // The same chain, its folders only their owner can write.
      (
        mode: 0o755, links: [("current", "shared/hop"), ("shared/hop", "../releases/v1")], way: "current",
        refused: nil
      ),
    ] as [(mode: Int, links: [(String, String)], way: String, refused: String?)])
  func bothEntryPointsJudgeALinkAlike(mode: Int, links: [(String, String)], way: String, refused: String?)
    throws
  {
    let installation = try Installation(sharedMode: mode_t(mode))
    for (name, target) in links { installation.link(name, to: target) }
    let launcher = try installation.launcherVerdict(through: way)
    let engine = try installation.engineVerdict(through: way)
    #expect(launcher == engine)
    if let refused {
      let shared = installation.shared
      let expected =
        "is reached through the link \(shared)/\(refused), which \(Self.writable(shared))"
      #expect(launcher == Verdict(status: 1, line: expected))
      #expect(
        LinkChase.verdict(installation.path + "/" + way + "/plugboard-host", user: geteuid()).refusedLink
          == shared + "/" + refused)
    } else {
      #expect(!launcher.refused, "\(launcher)")
      #expect(
        LinkChase.verdict(installation.path + "/" + way + "/libHealthy.so", user: geteuid())
          == .chased(resolved: installation.release + "/libHealthy.so"))
    }
  }

  /// A loop: neither can follow it, neither names a link, and both refuse
  /// to start what it leads to.
  @Test func bothEntryPointsRefuseALoop() throws {
    let installation = try Installation(sharedMode: 0o755)
    installation.link("shared/current", to: "other")
    installation.link("shared/other", to: "current")
    let launcher = try installation.launcherVerdict(through: "shared/current")
    let engine = try installation.engineVerdict(through: "shared/current")
    #expect(launcher == engine)
    #expect(launcher == Verdict(status: 1, line: nil))
    #expect(
      LinkChase.verdict(installation.shared + "/current/plugboard-host", user: geteuid())
        == .notFollowed(error: ELOOP))
  }

  /// A link another user owns, in a folder only root can write: both
  /// refuse it for its owner.
  @Test(.enabled(if: geteuid() == 0, "needs root, to give the link to another user"))
  func bothEntryPointsRefuseAnotherUsersLink() throws {
    let installation = try Installation(sharedMode: 0o755)
    installation.link("shared/current", to: "../releases/v1")
    #expect(lchown(installation.shared + "/current", OtherUser.uid, OtherUser.gid) == 0)
    let launcher = try installation.launcherVerdict(through: "shared/current")
    let engine = try installation.engineVerdict(through: "shared/current")
    #expect(launcher == engine)
    let link = installation.shared + "/current"
    #expect(
      launcher
        == Verdict(status: 1, line: "is reached through the link \(link), which is owned by uid 65534,"))
    #expect(
      LinkChase.verdict(link + "/plugboard-host", user: geteuid())
        == .linkOwner(link: link, owner: OtherUser.uid))
  }

  /// Both read dynamic sections with the loader model's reader: the same
  /// file (the host, which the launcher vets before it starts it, listed
  /// as a plugin) is refused by both for the same defect, a second
  /// `PT_DYNAMIC`, each in its own words.
  @Test func bothEntryPointsRefuseADynamicSectionTheReaderRefuses() throws {
    let installation = try Installation(sharedMode: 0o755)
    let host = installation.release + "/plugboard-host"
    let bytes = [UInt8](try #require(FileManager.default.contents(atPath: host)))
    func word(_ offset: Int, _ size: Int) -> Int {
      (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
    // The program headers, 56 bytes each; a PT_NOTE (4) made PT_DYNAMIC (2).
    let note = try #require(
      (0..<word(56, 2)).map { word(32, 8) + $0 * 56 }.first { word($0, 4) == 4 })
    let descriptor = open(host, O_WRONLY | O_CLOEXEC)
    try #require(descriptor >= 0)
    var dynamicType: UInt32 = 2
    #expect(pwrite(descriptor, &dynamicType, 4, off_t(note)) == 4)
    close(descriptor)
    installation.link("bin/plugboard-host", to: "../releases/v1/plugboard-host")
    let launcher = try Subprocess.run(installation.bin + "/plugboard", ["--version"])
    #expect(launcher.status != 0)
    #expect(
      launcher.stderrLines.first?.contains("cannot be vetted: it has more than one dynamic section — ")
        == true,
      "\(launcher.stderr)")
    let manifest = try installation.folder.writeManifest([("Healthy", "releases/v1/plugboard-host")])
    let engine = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(engine.status != 0)
    #expect(
      engine.stderr.contains(
        "has a dynamic section plugboard cannot read (found more than one dynamic section)"),
      "\(engine.stderr)")
  }
}

extension LinkChase.Verdict {
  /// The link a refusal names; nil when the path was followed or could not be.
  fileprivate var refusedLink: String? {
    switch self {
    case .chased, .notFollowed: nil
    case .linkOwner(let link, _), .folder(let link, _, _, _, _): link
    }
  }
}
