import Foundation
import PlugboardTestSupport
import Testing

/// `plugboard`, the launcher: a command that brings a deployment up is
/// forked before the host maps anything, and both processes start
/// `plugboard-host` (had the host forked itself, its child would fault
/// Swift, Foundation and the SDK in again). The host beside it is vetted
/// before it is started, as a plugin is.
@Suite(.serialized, .blocking) struct LauncherTests {
  /// LifecycleProbe (three services with hooks) beside a manifest.
  private func lifecycleDeployment() throws -> (TemporaryDirectory, String) {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([("LifecycleProbe", BuildProducts.library("LifecycleProbe"))])
    return (folder, manifest)
  }

  private func executable(of pid: pid_t) -> String? {
    try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
  }

  /// The environment `pid` was started with: a process the launcher
  /// started names its role there; a fork of the host would show the
  /// parent's instead.
  private func launchVariable(of pid: pid_t) -> String? {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return nil }
    return data.split(separator: 0).lazy.map { String(decoding: $0, as: UTF8.self) }
      .first { $0.hasPrefix("PLUGBOARD_LAUNCHED=") }
  }

  /// `run`: the supervising parent (plugboard's own pid, as a service
  /// manager started it) and the child are both `plugboard-host`, each
  /// started by the launcher in its role; the run is supervised as ever
  /// (SIGTERM stops it in order, and it ends by SIGTERM).
  @Test func aSupervisedCommandIsForkedBeforeTheHostStarts() throws {
    let (folder, manifest) = try lifecycleDeployment()
    defer { withExtendedLifetime(folder) {} }
    let process = try GroupedProcess(["run", "--manifest", manifest, "--", "wait"])
    #expect(try process.waitForLine("ready"))
    let children = process.children
    #expect(children.count == 1)
    let child = try #require(children.first)
    #expect(executable(of: process.pid) == BuildProducts.host)
    #expect(executable(of: child) == BuildProducts.host)
    // Descriptors 3 and 4: right after socket activation's, of which there are none.
    #expect(launchVariable(of: process.pid) == "PLUGBOARD_LAUNCHED=parent \(child) 3 4")
    #expect(launchVariable(of: child) == "PLUGBOARD_LAUNCHED=child \(process.pid) 3 4")
    process.signal(SIGTERM)
    #expect(try process.finish() == .killed(SIGTERM))
    #expect(process.stdoutLines == ProcessModelTests.stoppedInOrder)
    #expect(process.stderrText == "")
  }

  /// `--unsupervised` (and every command that loads nothing) goes to the
  /// host as it is: one process, started without the variable.
  @Test func anUnsupervisedCommandIsStartedAsItIs() throws {
    let (folder, manifest) = try lifecycleDeployment()
    defer { withExtendedLifetime(folder) {} }
    let process = try GroupedProcess(["run", "--unsupervised", "--manifest", manifest, "--", "wait"])
    #expect(try process.waitForLine("ready"))
    #expect(process.children.isEmpty)
    #expect(executable(of: process.pid) == BuildProducts.host)
    #expect(launchVariable(of: process.pid) == nil)
    process.signal(SIGTERM)
    #expect(try process.finish() == .killed(SIGTERM))
  }

  /// The variable is the launcher's alone: the launcher drops one it
  /// inherited, and a host started directly with one that does not
  /// describe it says so and supervises by itself.
  @Test func aVariableSetByHandIsIgnored() throws {
    let forged = ["PLUGBOARD_LAUNCHED": "parent 1 3 4"]
    let launched = try Subprocess.plugboard(["check"], in: BuildProducts.packageRoot, environment: forged)
    #expect(launched.status == 0)
    #expect(!launched.stderr.contains("PLUGBOARD_LAUNCHED"), "\(launched.stderr)")
    let direct = try Subprocess.run(
      BuildProducts.host, ["check"], in: BuildProducts.packageRoot, environment: forged)
    #expect(direct.status == 0)
    #expect(
      direct.stderrLines.first
        == "plugboard: warning: ignored PLUGBOARD_LAUNCHED, which does not describe this process; "
        + "it is plugboard's own, not to be set by hand")
  }

  /// A copy of the launcher in a new folder, and of the host (with the
  /// SDK it loads from its own folder) beside it when `withHost`.
  private func installation(withHost: Bool = true) throws -> (folder: TemporaryDirectory, bin: String) {
    let folder = try TemporaryDirectory()
    let bin = folder.path + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
    #expect(chmod(bin, 0o755) == 0)
    // By cp, not in this process: a test elsewhere forking meanwhile would
    // inherit the copy open for writing, and starting it would fail with
    // "Text file busy".
    var files = [BuildProducts.plugboard]
    if withHost { files += [BuildProducts.host, BuildProducts.library("PlugboardKit")] }
    let copied = try Subprocess.run("/bin/cp", ["-p"] + files + [bin])
    try #require(copied.status == 0, "\(copied.stderr)")
    return (folder, bin)
  }

  @Test func aMissingHostIsNamedWithTheFix() throws {
    let (folder, bin) = try installation(withHost: false)
    defer { withExtendedLifetime(folder) {} }
    let expected =
      "plugboard: cannot start \(bin)/plugboard-host: No such file or directory — build it beside plugboard "
      + "(swift build --product plugboard-host), or install both (Scripts/install-host)"
    // `run`'s own failures are EX_SOFTWARE, never an application's status.
    for (command, status) in [("run", Int32(70)), ("list", 1), ("--version", 1)] {
      let result = try Subprocess.run(bin + "/plugboard", [command])
      #expect(result.status == status, "\(command)")
      #expect(result.stderrLines == [expected], "\(command)")
      #expect(result.stdout == "", "\(command)")
    }
  }

  /// A host others can write is never started: whoever wrote it would run
  /// code as whoever runs plugboard.
  @Test(arguments: [0o775, 0o757, 0o777])
  func aHostOthersCanWriteIsRefused(mode: Int) throws {
    let (folder, bin) = try installation()
    defer { withExtendedLifetime(folder) {} }
    let host = bin + "/plugboard-host"
    #expect(chmod(host, mode_t(mode)) == 0)
    let writers = mode == 0o775 ? "its group" : mode == 0o757 ? "others" : "group and others"
    let result = try Subprocess.run(bin + "/plugboard", ["run"])
    #expect(result.status == 70)
    #expect(
      result.stderrLines == [
        "plugboard: \(host) is writable by \(writers) (mode 0\(String(mode, radix: 8)), owner uid \(geteuid())); "
          + "anyone who can write it can run code as whoever runs plugboard — chmod go-w \(host)"
      ])
  }

  /// The folder counts too. The host's folder is also where the dynamic
  /// loader looks for the SDK beside it (`$ORIGIN` in its run path), and
  /// there a sticky bit does not help: whoever can add a file there adds a
  /// library the host loads. A sticky folder above the installation
  /// (`/tmp`) is fine: no one else can rename what lies in it.
  @Test func aFolderOthersCanWriteIsRefusedAndStickyOnlyAbove() throws {
    let (folder, bin) = try installation()
    defer { withExtendedLifetime(folder) {} }
    #expect(chmod(bin, 0o777) == 0)
    let refused = try Subprocess.run(bin + "/plugboard", ["list", "--manifest", "/nonexistent/plugins.json"])
    #expect(refused.status == 1)
    #expect(
      refused.stderrLines == [
        "plugboard: \(bin)/plugboard-host lies in the folder \(bin), which is writable by group and others "
          + "(mode 0777, owner uid \(geteuid())); anyone who can write there can replace it — chmod go-w \(bin)"
      ])
    #expect(chmod(bin, 0o1777) == 0)
    let sticky = try Subprocess.run(bin + "/plugboard", ["--version"])
    #expect(sticky.status == 1)
    #expect(sticky.stdout == "")
    #expect(sticky.stderrLines == [Self.searchedFolderMessage(bin, mode: "1777")])
    #expect(chmod(bin, 0o755) == 0)
    #expect(chmod(folder.path, 0o1777) == 0)
    let started = try Subprocess.run(bin + "/plugboard", ["--version"])
    #expect(started.status == 0, "\(started.stderr)")
    #expect(started.stdout.hasPrefix("plugboard "))
  }

  /// The refusal of `folder`, a run path folder of the host that group and
  /// others can write (`mode`, owned by this user).
  static func searchedFolderMessage(_ folder: String, mode: String) -> String {
    "plugboard: \(folder), a folder the dynamic loader searches for the libraries plugboard-host loads, is "
      + "writable by group and others (mode \(mode), owner uid \(geteuid())); anyone who can write there can "
      + "add a library plugboard-host loads, sticky bit or not — chmod go-w \(folder)"
  }

  /// Every folder up to `/` counts: whoever can write the folder above
  /// the host's can rename the host's folder away and put another there.
  @Test func aFolderAboveTheHostOthersCanWriteIsRefused() throws {
    let (folder, bin) = try installation()
    defer { withExtendedLifetime(folder) {} }
    #expect(chmod(folder.path, 0o777) == 0)
    let result = try Subprocess.run(bin + "/plugboard", ["run"])
    #expect(result.status == 70)
    #expect(result.stdout == "")
    #expect(
      result.stderrLines == [
        "plugboard: \(bin)/plugboard-host lies under the folder \(folder.path), which is writable by group and "
          + "others (mode 0777, owner uid \(geteuid())); anyone who can write there can replace it — chmod go-w "
          + "\(folder.path)"
      ])
  }

  /// A linked host is judged where the link leads: the file and its
  /// folders, as well as the link's own folders.
  @Test func aLinkedHostIsJudgedWhereItLeads() throws {
    let (folder, bin) = try installation()
    defer { withExtendedLifetime(folder) {} }
    let elsewhere = folder.path + "/elsewhere"
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
    #expect(chmod(elsewhere, 0o755) == 0)
    // The SDK too, since the host's `$ORIGIN` is the folder it lies in.
    for name in ["plugboard-host", "libPlugboardKit.so"] {
      #expect(rename(bin + "/" + name, elsewhere + "/" + name) == 0)
    }
    #expect(symlink(elsewhere + "/plugboard-host", bin + "/plugboard-host") == 0)
    let started = try Subprocess.run(bin + "/plugboard", ["--version"])
    #expect(started.status == 0, "\(started.stderr)")
    #expect(started.stdout.hasPrefix("plugboard "))

    #expect(chmod(elsewhere, 0o777) == 0)
    let refused = try Subprocess.run(bin + "/plugboard", ["--version"])
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(
      refused.stderrLines == [
        "plugboard: \(elsewhere)/plugboard-host (where \(bin)/plugboard-host leads) lies in the folder "
          + "\(elsewhere), which is writable by group and others (mode 0777, owner uid \(geteuid())); anyone who "
          + "can write there can replace it — chmod go-w \(elsewhere)"
      ])
  }

  /// An installation whose host is a link into a release layout:
  /// `bin/plugboard-host` leads through `shared/current` (a link in a
  /// folder of `sharedMode`) to `releases/v1`, which holds the host and
  /// the SDK beside it.
  private func linkedInstallation(sharedMode: mode_t) throws -> (
    folder: TemporaryDirectory, bin: String, shared: String
  ) {
    let (folder, bin) = try installation()
    let release = folder.path + "/releases/v1"
    let shared = folder.path + "/shared"
    try FileManager.default.createDirectory(atPath: release, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
    #expect(chmod(folder.path + "/releases", 0o755) == 0)
    #expect(chmod(release, 0o755) == 0)
    #expect(chmod(shared, sharedMode) == 0)
    for name in ["plugboard-host", "libPlugboardKit.so"] {
      #expect(rename(bin + "/" + name, release + "/" + name) == 0)
    }
    #expect(symlink("../releases/v1", shared + "/current") == 0)
    #expect(symlink("../shared/current/plugboard-host", bin + "/plugboard-host") == 0)
    return (folder, bin, shared)
  }

  /// Every link on the way to the host is judged, not only where the
  /// last one leads: whoever can re-point `shared/current` chooses the
  /// host, though the host and every folder it lies in today are safe.
  @Test func aHostReachedThroughALinkOthersCanRepointIsRefused() throws {
    let (folder, bin, shared) = try linkedInstallation(sharedMode: 0o755)
    defer { withExtendedLifetime(folder) {} }
    let started = try Subprocess.run(bin + "/plugboard", ["--version"])
    #expect(started.status == 0, "\(started.stderr)")
    #expect(chmod(shared, 0o777) == 0)
    let refused = try Subprocess.run(bin + "/plugboard", ["--version"])
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(
      refused.stderrLines == [
        "plugboard: \(bin)/plugboard-host is reached through the link \(shared)/current, which lies in the "
          + "folder \(shared), which is writable by group and others (mode 0777, owner uid \(geteuid())); anyone "
          + "who can write there can replace the link, and so plugboard-host — chmod go-w \(shared)"
      ])
  }

  /// A link on the way owned by another user is theirs to re-point.
  @Test(.enabled(if: geteuid() == 0, "needs root, to give the link to another user"))
  func aHostReachedThroughAnotherUsersLinkIsRefused() throws {
    let (folder, bin, shared) = try linkedInstallation(sharedMode: 0o755)
    defer { withExtendedLifetime(folder) {} }
    #expect(lchown(shared + "/current", OtherUser.uid, OtherUser.gid) == 0)
    let refused = try Subprocess.run(bin + "/plugboard", ["--version"])
    #expect(refused.status == 1)
    #expect(
      refused.stderrLines == [
        "plugboard: \(bin)/plugboard-host is reached through the link \(shared)/current, which is owned by uid "
          + "65534, neither root nor the owner of plugboard (uid \(geteuid())); its owner can point it at another "
          + "file and run code as whoever runs plugboard — chown -h root \(shared)/current"
      ])
  }

  /// Another user flips `shared/current` between root's release and her
  /// own host, over and over, while plugboard starts: her host never runs,
  /// whatever the link leads to when plugboard looks and when it starts
  /// the host.
  @Test(.enabled(if: geteuid() == 0, "needs root, to give a folder and its host to another user"))
  func aHostLinkFlippedDuringStartNeverRunsAnotherUsersHost() throws {
    let (folder, bin, shared) = try linkedInstallation(sharedMode: 0o777)
    defer { withExtendedLifetime(folder) {} }
    let theirs = folder.path + "/theirs"
    let witness = folder.path + "/their-host-ran"
    try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
    let host = theirs + "/plugboard-host"
    try "#!/bin/sh\ntouch \(witness)\n".write(toFile: host, atomically: false, encoding: .utf8)
    #expect(chmod(host, 0o755) == 0)
    for file in [theirs, host] { #expect(chown(file, OtherUser.uid, OtherUser.gid) == 0) }
    let flipper = LinkFlipper(
      link: shared + "/current", between: "../releases/v1", and: "../theirs", owner: OtherUser.uid)
    defer { flipper.stop() }
    for round in 0..<60 {
      let result = try Subprocess.run(bin + "/plugboard", ["--version"])
      #expect(result.status == 1, "round \(round): \(result.stdout)\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: witness), "round \(round): another user's host ran")
    }
  }

  /// The build folder's own launcher starts its host: the toolchain's
  /// libraries it loads (root's, mode 0755) and the build folder pass.
  @Test func theBuildFoldersLauncherStarts() throws {
    let result = try Subprocess.plugboard(["--version"])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(result.stdout.hasPrefix("plugboard "))
  }

  /// Owned by a third user: refused (needs root, to give it away).
  @Test(.enabled(if: geteuid() == 0, "needs root, to give the host to another user"))
  func aHostOwnedByAnotherUserIsRefused() throws {
    let (folder, bin) = try installation()
    defer { withExtendedLifetime(folder) {} }
    let host = bin + "/plugboard-host"
    let nobody = try #require(getpwnam("nobody")?.pointee.pw_uid)
    #expect(chown(host, nobody, gid_t.max) == 0)
    let result = try Subprocess.run(bin + "/plugboard", ["check"])
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: \(host) is owned by neither root nor the owner of plugboard (uid \(geteuid())) "
          + "(mode 0755, owner uid \(nobody)); its owner could run code as whoever runs plugboard — chown root "
          + "\(host), or install both again (Scripts/install-host)"
      ])
  }
}
