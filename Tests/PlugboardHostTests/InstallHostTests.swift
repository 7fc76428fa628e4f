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
    #expect(installed.stderr.hasPrefix("Installed \(HostVersions.line) into \(prefix):\n"))
    #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/plugboard"))
    #expect(FileManager.default.fileExists(atPath: prefix + "/lib/libPlugboardKit.so"))

    try expectRunsTheSample(from: prefix)

    let moved = folder.path + "/elsewhere/moved"
    try FileManager.default.createDirectory(
      atPath: folder.path + "/elsewhere", withIntermediateDirectories: false)
    try FileManager.default.moveItem(atPath: prefix, toPath: moved)
    try expectRunsTheSample(from: moved)
  }

  /// The installed launcher vets the host and every library it maps
  /// before anything of them is mapped, so it must map nothing from the
  /// prefix itself: a debug launcher that needed the Swift runtime mapped
  /// `PREFIX/lib/libswiftCore.so` before it judged it, and a file others
  /// could write there ran their code before the refusal was printed.
  @Test func theInstalledLauncherNeedsNothingFromThePrefix() throws {
    let (folder, prefix) = try installed()
    defer { withExtendedLifetime(folder) {} }
    let info = try #require(ELFFile(path: prefix + "/bin/plugboard").dynamicInfo())
    let fromPrefix = info.needed.filter { FileManager.default.fileExists(atPath: prefix + "/lib/" + $0) }
    #expect(fromPrefix == [], "\(info.needed)")
    #expect(!info.needed.contains { $0.hasPrefix("libswift") }, "\(info.needed)")
  }

  /// A prefix with this build installed into it.
  private func installed() throws -> (folder: TemporaryDirectory, prefix: String) {
    let folder = try TemporaryDirectory()
    let prefix = folder.path + "/prefix"
    let installed = try install(into: prefix)
    try #require(installed.status == 0, "\(installed.stderr)")
    return (folder, prefix)
  }

  /// Runs the installed `plugboard` with `--version` and with `run`, and
  /// expects both refused with `message` alone, as plugboard's own failures.
  private func expectRefused(_ prefix: String, _ message: String) throws {
    for (command, status) in [("--version", Int32(1)), ("run", 70)] {
      let result = try Subprocess.run(prefix + "/bin/plugboard", [command])
      #expect(result.status == status, "\(command)")
      #expect(result.stdout == "", "\(command)")
      #expect(result.stderrLines == [message], "\(command)")
    }
  }

  /// The libraries the host maps run as whoever runs plugboard, as the
  /// host does: one others can write is never loaded, and the launcher
  /// says so before the host starts.
  @Test func aLibraryOthersCanWriteIsRefused() throws {
    let (folder, prefix) = try installed()
    defer { withExtendedLifetime(folder) {} }
    let library = prefix + "/lib/libBlocksRuntime.so"
    #expect(chmod(library, 0o666) == 0)
    try expectRefused(
      prefix,
      "plugboard: \(library), a library plugboard-host loads, is writable by group and others (mode 0666, owner "
        + "uid \(geteuid())); anyone who can write it can run code as whoever runs plugboard — chmod go-w \(library)"
    )
  }

  /// The folder the host's run path names: whoever can add a file there
  /// adds a library the host loads, so a sticky bit does not save it.
  @Test(arguments: [0o777, 0o1777])
  func aLibraryFolderOthersCanWriteIsRefusedStickyOrNot(mode: Int) throws {
    let (folder, prefix) = try installed()
    defer { withExtendedLifetime(folder) {} }
    #expect(chmod(prefix + "/lib", mode_t(mode)) == 0)
    try expectRefused(
      prefix,
      "plugboard: \(prefix)/lib, a folder the dynamic loader searches for the libraries plugboard-host loads, is "
        + "writable by group and others (mode \(mode == 0o777 ? "0777" : "1777"), owner uid \(geteuid())); anyone "
        + "who can write there can add a library plugboard-host loads, sticky bit or not — chmod go-w \(prefix)/lib"
    )
  }

  /// The loader tries subfolders of each run path folder first (the
  /// `glibc-hwcaps` levels, and `x86_64`, `tls` and the like before glibc
  /// 2.37): one of them that exists counts as the folder does.
  @Test(arguments: ["x86_64", "tls", "glibc-hwcaps/x86-64-v3"])
  func aSubfolderTheLoaderSearchesFirstCounts(subfolder: String) throws {
    let (folder, prefix) = try installed()
    defer { withExtendedLifetime(folder) {} }
    let path = prefix + "/lib/" + subfolder
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    let started = try Subprocess.run(prefix + "/bin/plugboard", ["--version"])
    #expect(started.status == 0, "\(started.stderr)")
    #expect(chmod(path, 0o777) == 0)
    try expectRefused(
      prefix,
      "plugboard: \(path), a folder the dynamic loader searches before \(prefix)/lib for the libraries "
        + "plugboard-host loads, is writable by group and others (mode 0777, owner uid \(geteuid())); anyone "
        + "who can write there can add a library plugboard-host loads, sticky bit or not — chmod go-w \(path)"
    )
  }

  /// A file that is not a readable ELF library cannot be vetted, so it is
  /// refused rather than passed over: the text of a script, and a real
  /// library's header cut off before its program headers.
  @Test(arguments: [
    ("#!/bin/sh\n", "it is not a 64-bit little-endian ELF file for x86-64 or AArch64"),
    ("header", "its program headers lie outside it"),
  ])
  func aLibraryThatCannotBeReadIsRefused(content: String, problem: String) throws {
    let (folder, prefix) = try installed()
    defer { withExtendedLifetime(folder) {} }
    let library = prefix + "/lib/libBlocksRuntime.so"
    let original = try #require(FileManager.default.contents(atPath: library))
    try expectUnvettable(
      library, replacedBy: content == "header" ? original.prefix(64) : Data(content.utf8), prefix, problem)
  }

  /// Replaces `library` with `bytes` and expects it refused for `problem`.
  private func expectUnvettable(
    _ library: String, replacedBy bytes: Data, _ prefix: String, _ problem: String
  ) throws {
    #expect(FileManager.default.createFile(atPath: library + ".new", contents: bytes))
    #expect(chmod(library + ".new", 0o644) == 0)
    #expect(rename(library + ".new", library) == 0)
    try expectRefused(
      prefix,
      "plugboard: \(library), a library plugboard-host loads, cannot be vetted: \(problem) — install plugboard "
        + "again (Scripts/install-host)")
  }

  /// The names a library needs are read from its string table, bounded
  /// by the size its dynamic section declares: a name past that size, or
  /// one that runs over its end, is refused, not read from beyond it.
  @Test(arguments: [
    (0, "a name lies outside its string table"),
    (2, "a name runs past its string table"),
  ])
  func aStringTableCutShortIsRefused(keptOfLastName: UInt64, problem: String) throws {
    let (folder, prefix) = try installed()
    defer { withExtendedLifetime(folder) {} }
    let library = prefix + "/lib/libBlocksRuntime.so"
    var bytes = [UInt8](try #require(FileManager.default.contents(atPath: library)))
    func word(_ offset: Int) -> UInt64 {
      (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }
    // The ELF header names the program headers; PT_DYNAMIC (2) holds
    // entries of a tag and a value, 16 bytes each.
    let headers = Int(word(32))
    let count = Int(word(56) & 0xFFFF)
    let dynamic = try #require(
      (0..<count).map { headers + $0 * 56 }.first { word($0) & 0xFFFF_FFFF == 2 }.map { Int(word($0 + 8)) })
    var entries: [(tag: UInt64, value: UInt64, at: Int)] = []
    var at = dynamic
    while word(at) != 0 {
      entries.append((word(at), word(at + 8), at))
      at += 16
    }
    // DT_NEEDED 1, DT_RPATH 15, DT_RUNPATH 29: the last name read; DT_STRSZ 10.
    let last = try #require(entries.filter { [1, 15, 29].contains($0.tag) }.map(\.value).max())
    let size = try #require(entries.first { $0.tag == 10 })
    let cut = last + keptOfLastName
    for index in 0..<8 { bytes[size.at + 8 + index] = UInt8(truncatingIfNeeded: cut >> (8 * UInt64(index))) }
    try expectUnvettable(library, replacedBy: Data(bytes), prefix, problem)
  }

  /// Owned by a third user: refused (needs root, to give it away).
  @Test(.enabled(if: geteuid() == 0, "needs root, to give a library to another user"))
  func aLibraryOwnedByAnotherUserIsRefused() throws {
    let (folder, prefix) = try installed()
    defer { withExtendedLifetime(folder) {} }
    let library = prefix + "/lib/libswiftCore.so"
    let nobody = try #require(getpwnam("nobody")?.pointee.pw_uid)
    #expect(chown(library, nobody, gid_t.max) == 0)
    try expectRefused(
      prefix,
      "plugboard: \(library), a library plugboard-host loads, is owned by neither root nor the owner of plugboard "
        + "(uid \(geteuid())) (mode 0644, owner uid \(nobody)); its owner could run code as whoever runs plugboard "
        + "— chown root \(library)")
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

  /// A launcher that needs the Swift runtime would map it from the
  /// prefix before it vets anything there: refused before anything is
  /// copied, saying why. The host, which needs it, stands in for one.
  @Test func refusesALauncherThatNeedsTheSwiftRuntime() throws {
    let folder = try TemporaryDirectory()
    for name in ["plugboard", "plugboard-host"] {
      try FileManager.default.copyItem(atPath: BuildProducts.host, toPath: folder.path + "/" + name)
    }
    let needed = try #require(ELFFile(path: BuildProducts.host).dynamicInfo()?.needed)
    let swift = try #require(needed.first { $0.hasPrefix("libswift") })
    let result = try Subprocess.run(Self.script, ["--from", folder.path, folder.path + "/prefix"])
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "install-host: \(folder.path)/plugboard needs \(swift), which it would load from the prefix "
          + "before it vets anything there; whoever could change that library would run code as whoever runs "
          + "plugboard — build plugboard again (swift build --product plugboard), or install a release build "
          + "(leave out --from)"
      ])
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/prefix"))
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

  /// A release build whose PlugboardKit renamed a method plugins of the
  /// same major version call (its `Modules/PlugboardKit.abi.json` the
  /// baseline with `Container.addBehavior(_:)` renamed, as
  /// `KitABICheckTests` makes it) is refused before anything is installed:
  /// installed, every such plugin would fail to load.
  @Test(
    .enabled(
      if: Toolchain.find("swift-api-digester") != nil,
      "needs swift-api-digester (part of the Swift toolchain)"))
  func aReleaseBuildWhoseKitBreaksItsABIIsNotInstalled() throws {
    let folder = try TemporaryDirectory()
    let build = folder.path + "/release"
    try FileManager.default.createDirectory(atPath: build + "/Modules", withIntermediateDirectories: true)
    for program in ["plugboard", "plugboard-host"] {
      try FileManager.default.copyItem(
        atPath: BuildProducts.directory + "/" + program, toPath: build + "/" + program)
    }
    let baseline = try String(
      contentsOfFile: BuildProducts.packageRoot + "/Kit/ABI/PlugboardKit.abi.json", encoding: .utf8)
    let broken = baseline.replacingOccurrences(
      of: #""name": "addBehavior","#, with: #""name": "addBehaviour","#
    )
    .replacingOccurrences(
      of: #""printedName": "addBehavior(_:)","#, with: #""printedName": "addBehaviour(_:)","#)
    _ = try folder.write("release/Modules/PlugboardKit.abi.json", broken)
    let prefix = folder.path + "/prefix"
    let result = try Subprocess.run(Self.script, ["--from", build, prefix])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("  Func Container.addBehavior(_:) has been renamed to Func addBehaviour(_:)\n"))
    #expect(
      result.stderrLines.last
        == "install-host: refusing to install \(build)/plugboard: its PlugboardKit does not keep the promise its "
        + "version makes (Scripts/check-kit-abi, above) — undo the break, or raise PlugboardBuild.kitRelease to "
        + "the new major version it names and rebuild every plugin")
    #expect(!FileManager.default.fileExists(atPath: prefix))
  }

  /// A release build without the interface the check compares is refused
  /// too: installing it unchecked is how a breaking host got out.
  @Test func aReleaseBuildWithoutItsKitInterfaceIsNotInstalled() throws {
    let folder = try TemporaryDirectory()
    let build = folder.path + "/release"
    try FileManager.default.createDirectory(atPath: build, withIntermediateDirectories: true)
    for program in ["plugboard", "plugboard-host"] {
      try FileManager.default.copyItem(
        atPath: BuildProducts.directory + "/" + program, toPath: build + "/" + program)
    }
    let result = try Subprocess.run(Self.script, ["--from", build, folder.path + "/prefix"])
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "install-host: \(build) has no Modules/PlugboardKit.abi.json to check PlugboardKit's ABI against the last "
          + "release with; build it with swift build -c release (PlugboardKit is built with library evolution)"
      ])
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/prefix"))
  }

  /// Operators run the installed host as root: a prefix someone else can
  /// write is refused before anything is copied into it.
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
