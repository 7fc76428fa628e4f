import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// `run --pid-file` and `reload --pid-file`: whoever can plant a file at
/// the path must not block plugboard (a FIFO) nor choose the process a
/// reload signals (a file of theirs); each refusal names the file, its
/// owner, its mode and the fix.
@Suite(.serialized, .blocking, .timeLimit(.minutes(10))) struct PidFileTests {
  /// A FIFO at the path blocked `run` before bring-up, and then its
  /// supervising process, which ignored SIGTERM; now `run` refuses it
  /// before anything is brought up, and ends.
  @Test func runRefusesAFIFOAtThePidFile() throws {
    let folder = try TemporaryDirectory()
    let path = folder.path + "/run.pid"
    #expect(mkfifo(path, 0o644) == 0)
    let manifest = try folder.write("plugins.json", ReloadTests.Running.manifest(hookTimeout: "5"))
    let result = try Subprocess.plugboard(["run", "--manifest", manifest, "--pid-file", path, "--", "wait"])
    #expect(result.exited && result.status == 78)
    #expect(
      result.stderrLines == [
        "plugboard: run: refusing the pid file \(path): it is a FIFO (named pipe) (mode 0644, owner uid "
          + "\(geteuid())), not a pid file plugboard wrote; whoever made it could block plugboard or aim "
          + "'plugboard reload' at another process — remove it (rm \(path)) and let 'plugboard run' write it, "
          + "in a folder only you can write"
      ])
    #expect(result.stdout == "")
    #expect(FileKind.of(path) == .other)
  }

  /// `reload` opens the file without blocking, and refuses a FIFO.
  @Test func reloadRefusesAFIFO() throws {
    let folder = try TemporaryDirectory()
    let path = folder.path + "/run.pid"
    #expect(mkfifo(path, 0o600) == 0)
    let result = try Subprocess.plugboard(["reload", "--pid-file", path])
    #expect(result.exited && result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: reload: refusing the pid file \(path): it is a FIFO (named pipe) (mode 0600, owner uid "
          + "\(geteuid())), not a pid file plugboard wrote; whoever made it could block plugboard or aim "
          + "'plugboard reload' at another process — remove it (rm \(path)) and let 'plugboard run' write it, "
          + "in a folder only you can write"
      ])
  }

  /// A pid file in a folder others can write is refused by both: anyone
  /// could put another pid there.
  @Test func aPidFileInAFolderOthersCanWriteIsRefused() throws {
    let folder = try TemporaryDirectory()
    let shared = folder.path + "/shared"
    #expect(mkdir(shared, 0o755) == 0 && chmod(shared, 0o777) == 0)
    let path = shared + "/run.pid"
    let manifest = try folder.write("plugins.json", ReloadTests.Running.manifest(hookTimeout: "5"))
    let problem =
      "refusing the pid file \(path): it lies in the folder \(shared), which is writable by group and others "
      + "(mode 0777, owner uid \(geteuid())); anyone who can write there can replace the pid file — chmod go-w "
      + shared
    let run = try Subprocess.plugboard(["run", "--manifest", manifest, "--pid-file", path, "--", "wait"])
    #expect(run.exited && run.status == 78)
    #expect(run.stderrLines == ["plugboard: run: " + problem])
    #expect(!FileManager.default.fileExists(atPath: path))
    _ = try folder.write("shared/run.pid", "\(getpid())\n")
    let reload = try Subprocess.plugboard(["reload", "--pid-file", path])
    #expect(reload.exited && reload.status == 1)
    #expect(reload.stderrLines == ["plugboard: reload: " + problem])
  }

  /// A regular file planted by another user would aim `reload` at
  /// whatever process it names, another deployment of the operator's
  /// included: refused, naming its owner.
  @Test(.enabled(if: geteuid() == 0, "needs root, to give the pid file to another user (nobody)"))
  func aPidFileOfAnotherUserIsRefused() throws {
    let running = try ReloadTests.Running()
    let folder = try TemporaryDirectory()
    let path = try folder.write("run.pid", "\(running.process.pid)\n")
    #expect(chmod(path, 0o644) == 0)
    let nobody = try #require(getpwnam("nobody")?.pointee.pw_uid)
    #expect(chown(path, nobody, gid_t.max) == 0)
    let problem =
      "refusing the pid file \(path): it is owned by uid \(nobody), not the user running plugboard (uid 0) "
      + "(mode 0644, owner uid \(nobody)); its owner can aim 'plugboard reload' at another process — remove it "
      + "(rm \(path)) and let 'plugboard run' write it, in a folder only you can write"
    let reload = try Subprocess.plugboard(["reload", "--pid-file", path])
    #expect(reload.exited && reload.status == 1)
    #expect(reload.stderrLines == ["plugboard: reload: " + problem])
    let run = try Subprocess.plugboard([
      "run", "--manifest", running.manifest, "--pid-file", path, "--", "wait",
    ])
    #expect(run.exited && run.status == 78)
    #expect(run.stderrLines == ["plugboard: run: " + problem])
    // The running deployment was never signalled: it stops as it started.
    try running.stop()
    #expect(running.process.stdoutLines == ReloadTests.started + ReloadTests.stopped)
    #expect(running.process.stderrText == "")
  }

  /// A pid file this user's earlier run left (killed before it could
  /// remove it) is replaced, by a rename: the run writes its own pid.
  @Test func aStalePidFileOfTheOperatorIsReplaced() throws {
    let folder = try TemporaryDirectory()
    let stale = try folder.write("run.pid", "999999\n")
    #expect(chmod(stale, 0o644) == 0)
    #expect(PidFile.write(stale, pid: 4242) == nil)
    #expect(try String(contentsOfFile: stale, encoding: .utf8) == "4242\n")
    var status = stat()
    #expect(lstat(stale, &status) == 0 && status.st_mode & 0o7777 == 0o644)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["run.pid"])
    #expect(PidFile.read(stale) == .success(4242))
    PidFile.remove(stale, ifHolding: 1)
    #expect(FileManager.default.fileExists(atPath: stale))
    PidFile.remove(stale, ifHolding: 4242)
    #expect(!FileManager.default.fileExists(atPath: stale))
  }

  /// A link at the path, which plugboard never writes, is not followed.
  @Test func aLinkAtThePidFileIsRefused() throws {
    let folder = try TemporaryDirectory()
    let target = try folder.write("elsewhere", "\(getpid())\n")
    let path = folder.path + "/run.pid"
    #expect(symlink(target, path) == 0)
    var status = stat()
    #expect(lstat(path, &status) == 0)
    let mode = String(status.st_mode & 0o7777, radix: 8)
    #expect(
      PidFile.read(path)
        == .failure(
          PidFile.Failure(
            message: "refusing the pid file \(path): it is a symbolic link (mode 0\(mode), owner uid "
              + "\(geteuid())), not a pid file plugboard wrote; whoever made it could block plugboard or aim "
              + "'plugboard reload' at another process — remove it (rm \(path)) and let 'plugboard run' write "
              + "it, in a folder only you can write")))
    #expect(PidFile.write(path, pid: 4242) == PidFile.read(path).failure)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "\(getpid())\n")
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let failure) = self { return failure }
    return nil
  }
}
