import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// The supervisor as a user meets it: a factory that traps while the
/// `Application` is resolved, an application that crashes once running,
/// exit statuses passed through, signals passed on, the stage timeout from
/// the manifest and the flag, and what `--unsupervised` gives up.
@Suite(.blocking) struct SupervisionTests {
  /// A deployment of one built plugin, copied beside its manifest.
  private func deployment(_ product: String, manifestExtras: String = "") throws -> (
    TemporaryDirectory, String
  ) {
    let folder = try TemporaryDirectory()
    try FileManager.default.copyItem(
      atPath: BuildProducts.library(product), toPath: folder.path + "/lib\(product).so")
    let manifest = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, \#(manifestExtras) "plugins": [ { "name": "\#(product)", "path": "lib\#(product).so" } ] }"#
    )
    return (folder, manifest)
  }

  /// Where TrappingFactory registers its services, and how its factory of
  /// `Database` traps.
  static let trappingFactorySite = "TrappingFactory/TrappingFactoryPlugin.swift"
  static let trappingFactoryTrap =
    #"SIGILL (a Swift runtime trap: "\#(trappingFactorySite):26: Fatal error: database URL missing")"#

  @Test func aFactoryThatTrapsWhileTheApplicationIsResolvedIsNamed() throws {
    let (folder, manifest) = try deployment("TrappingFactory")
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(result.exited)
    #expect(result.status == ExitStatus.runCrashed.rawValue)
    #expect(result.status == 70)
    let (site, trap) = (Self.trappingFactorySite, Self.trappingFactoryTrap)
    #expect(
      result.stderrLines.filter { $0.hasPrefix("plugboard: ") } == [
        "plugboard: resolve Application: crashed with \(trap) while making TrappingFactory.Database "
          + "(registered at \(site):24 in plugin TrappingFactory)",
        "plugboard:   chain: PlugboardKit.Application (\(site):29 in plugin TrappingFactory) → "
          + "TrappingFactory.Database (\(site):24 in plugin TrappingFactory)",
        "plugboard: run: fix the factory of TrappingFactory.Database; the application was not run",
      ])
  }

  /// Its line, still in stdio's buffer (standard output is a file here)
  /// when it trapped, is not lost.
  @Test func anApplicationThatCrashesOnceRunningEndsWith128PlusTheSignal() throws {
    let (folder, manifest) = try deployment("Healthy")
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(["run", "--manifest", manifest, "--", "trap"])
    #expect(result.exited)
    #expect(result.status == 128 + SIGILL)
    #expect(result.stdout == "Healthy is running\n")
    #expect(
      result.stderrLines.last.map(CrashLocation.masked)
        == #"plugboard: application running: the application crashed with SIGILL (a Swift runtime trap: "#
        + #""Healthy/HealthyPlugin.swift:30: Fatal error: the application gave up") in plugin 'Healthy' "#
        + "(libHealthy.so+0x…)")
  }

  @Test func theApplicationsExitStatusPassesThrough() throws {
    let (folder, manifest) = try deployment("Healthy")
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(["run", "--manifest", manifest, "--", "exit", "7"])
    #expect(result.exited)
    #expect(result.status == 7)
    #expect(result.stderr == "")
  }

  /// SIGTERM sent to `plugboard` (as a service manager sends it) reaches
  /// the application, and plugboard ends by it, as the application did.
  @Test func aSignalSentToPlugboardReachesTheApplication() throws {
    let (folder, manifest) = try deployment("Healthy")
    defer { withExtendedLifetime(folder) {} }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BuildProducts.plugboard)
    process.arguments = ["run", "--manifest", manifest, "--", "wait"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Once the application has printed, it is running in the child.
    var seen = Data()
    while !seen.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { break }
      seen.append(chunk)
    }
    #expect(String(decoding: seen, as: UTF8.self) == "Healthy is running\n")
    process.terminate()
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == SIGTERM)
  }

  @Test func theManifestsStageTimeoutAndTheFlagBoundAHang() throws {
    let hang = try CFixtures.directory.get() + "/libHang.so"
    let folder = try TemporaryDirectory()
    try FileManager.default.copyItem(atPath: hang, toPath: folder.path + "/libHang.so")
    let manifest = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, "stageTimeout": 2, "plugins": [ { "name": "Hang", "path": "libHang.so" } ] }"#
    )
    let stopped = "open: plugin 'Hang' (\(folder.path)/libHang.so) was stopped after"
    let fromManifest = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(fromManifest.exited && fromManifest.status == 1)
    #expect(
      fromManifest.stderrLines.first?.hasPrefix("plugboard: \(stopped) 2 s while being opened") == true)
    let fromFlag = try Subprocess.plugboard(["list", "--manifest", manifest, "--stage-timeout", "1.5"])
    #expect(fromFlag.stderrLines.first?.hasPrefix("plugboard: \(stopped) 1.5 s while being opened") == true)
  }

  /// A constructor that writes `T3600` on the progress pipe it inherited
  /// does not buy itself an hour: the stage timeout the child sent first,
  /// before any plugin code ran, stands.
  @Test func aForgedStageTimeoutIsIgnored() throws {
    let (folder, manifest, file) = try CFixtures.deployment("ForgeTimeout", extras: #""stageTimeout": 2,"#)
    defer { withExtendedLifetime(folder) {} }
    // Bounded: a switched-off watchdog fails the test instead of hanging it.
    let process = try GroupedProcess(["list", "--manifest", manifest])
    #expect(try process.finish() == .exited(1))
    #expect(
      process.stderrText.split(separator: "\n").first.map(String.init)
        == "plugboard: open: plugin 'ForgeTimeout' (\(file)) was stopped after 2 s while being opened (in its "
        + "library initialisers): it never returned — \(CrashReport.slowHint)")
  }

  /// Lines on the progress pipe are parsed strictly: a field with an
  /// escape the writer never makes, a signal out of range, or a stray
  /// field is no event.
  @Test func malformedProgressLinesAreNoEvents() {
    #expect(
      ProgressEvent(line: Substring("C11\t" + #"boom\\ \t\n"#)) == .crash(signal: 11, message: "boom\\ \t"))
    for line in [
      "C11\tbad \\x escape", "C11\ttrailing \\", "C99\tx", "C0\tx", "T5\textra", "K15\t", "K0", "Mtype",
    ] {
      #expect(ProgressEvent(line: Substring(line)) == nil, "\(line)")
    }
  }

  @Test func aBadStageTimeoutIsMisuse() throws {
    let result = try Subprocess.plugboard(["list", "--stage-timeout", "0"])
    #expect(result.exited)
    #expect(result.status == 2)
    #expect(
      result.stderrLines == [
        "plugboard: --stage-timeout takes a number of seconds greater than 0 and at most 3600, found '0'",
        "Run 'plugboard list --help' for usage.",
      ])
  }

  /// What `--unsupervised` gives up: a crashing plugin takes plugboard
  /// down with it (the way to debug it under a debugger).
  @Test func unsupervisedACrashTakesPlugboardDown() throws {
    let crash = try CFixtures.directory.get() + "/libCrash.so"
    let folder = try TemporaryDirectory()
    try FileManager.default.copyItem(atPath: crash, toPath: folder.path + "/libCrash.so")
    let manifest = try folder.writeManifest([("Crash", "libCrash.so")])
    let result = try Subprocess.plugboard(
      ["list", "--manifest", manifest, "--unsupervised"], environment: ["SWIFT_BACKTRACE": "enable=no"])
    #expect(!result.exited)
    #expect(result.status == SIGSEGV)
  }

  /// The wire format survives any text, escapes included.
  @Test func progressEventsRoundTrip() {
    let events: [ProgressEvent] = [
      .stage(.open, plugin: "A\tB\nC\\", file: "/x y/lib.so"), .stage(.validate, plugin: nil, file: nil),
      .stageTimeout(.milliseconds(2500)), .crash(signal: 11, message: "boom\n"),
      .crash(signal: 6, message: nil),
      .making(type: "M.T named \"x\"", site: "M/F.swift:3 in plugin P"), .reporting, .running,
      .privateFolder("/tmp/plugboard-pin-AbC123"), .privateFolder(nil),
    ]
    let decoded = events.map { ProgressEvent(line: Substring($0.line)) }
    #expect(decoded[0] == events[0])
    #expect(decoded[1] == events[1])
    #expect(decoded[2] == events[2])
    #expect(decoded[3] == .crash(signal: 11, message: "boom"))
    #expect(decoded[4...] == events[4...].map { Optional($0) }[...])
    #expect(ProgressEvent(line: "Snot a stage\t\t") == nil)
    #expect(ProgressEvent(line: "") == nil)
  }
}
