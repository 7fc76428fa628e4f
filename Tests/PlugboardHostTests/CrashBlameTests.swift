import Foundation
import Testing

@testable import PlugboardEngine

/// A crash is blamed on the plugin whose code crashed, found by address
/// (the crashing thread's frames, the faulting address), not on the plugin
/// whose stage plugboard was in; and a stack overflow in plugin code is
/// reported like any other crash (see SECURITY.md, "Blame by
/// address").
extension ProcessModelTests {
  /// Two C fixtures copied into a fresh folder, in this order, with the
  /// manifest listing them. Returns the folder, the manifest and the files.
  private func deployment(_ fixtures: [String]) throws -> (TemporaryDirectory, String, [String]) {
    let folder = try TemporaryDirectory()
    var files: [String] = []
    for fixture in fixtures {
      let file = folder.path + "/lib\(fixture).so"
      try FileManager.default.copyItem(
        atPath: try CFixtures.directory.get() + "/lib\(fixture).so", toPath: file)
      files.append(file)
    }
    let manifest = try folder.writeManifest(Array(zip(fixtures, files)))
    return (folder, manifest, files)
  }

  /// `line` with the hexadecimal offset after `lib<fixture>.so+0x` checked
  /// to lie inside `function` of that file (its symbol, by `llvm-nm`),
  /// then replaced with `…`: the offset depends on the compiler, the
  /// function it must point into does not.
  private func maskingOffset(in line: String, of file: String, function: String) throws -> String {
    let name = URL(fileURLWithPath: file).lastPathComponent
    let marker = name + "+0x"
    guard let start = line.range(of: marker) else { return line }
    let digits = line[start.upperBound...].prefix { $0.isHexDigit }
    let offset = UInt64(digits, radix: 16)
    let symbol = try symbolRange(function, in: file)
    #expect(
      offset.map { symbol?.contains($0) ?? false } == true,
      "\(line): not in \(function) (\(String(describing: symbol)))")
    return line.replacingCharacters(in: start.upperBound..<digits.endIndex, with: "…")
  }

  /// Where `function` lies in `file`, by the toolchain's `llvm-nm`.
  private func symbolRange(_ function: String, in file: String) throws -> Range<UInt64>? {
    guard let compiler = Toolchain.cCompiler else { return nil }
    let nm = URL(fileURLWithPath: compiler).deletingLastPathComponent().appendingPathComponent("llvm-nm").path
    let result = try Subprocess.run(nm, ["-S", "--defined-only", file])
    for line in result.stdout.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count == 4, fields[3] == function, let address = UInt64(fields[0], radix: 16),
        let size = UInt64(fields[1], radix: 16)
      else { continue }
      return address..<(address + size)
    }
    return nil
  }

  /// Plugin BlameOwner leaves a function that crashes; BlameCaller's
  /// constructor calls it, on its own thread or (BlameThread) by waking a
  /// thread BlameOwner started. The crash comes while BlameCaller is being
  /// opened, in BlameOwner's code: BlameOwner is named, with the library
  /// and offset of the crashing function, and set aside; BlameCaller is
  /// not reported as crashed. Tried several times: the thread is a race.
  @Test(arguments: ["BlameOwner", "BlameThread"])
  func aCrashIsBlamedOnThePluginWhoseCodeCrashed(owner: String) throws {
    let (folder, manifest, files) = try deployment([owner, "BlameCaller"])
    defer { withExtendedLifetime(folder) {} }
    let expected = [
      "plugboard: open: plugin '\(owner)' (\(files[0])) crashed with SIGSEGV (segmentation fault: a bad memory "
        + "access) in lib\(owner).so+0x… while plugin 'BlameCaller' was being opened (in its library "
        + "initialisers) — \(CrashReport.disableHint)",
      "plugboard: find entry: plugin 'BlameCaller' (\(files[1])) returned NULL from plugboard_entry_v1; expected a "
        + "pointer to its plugboard_plugin_v1 descriptor",
    ]
    for attempt in 1...5 {
      let result = try Subprocess.plugboard(["list", "--json", "--manifest", manifest])
      #expect(result.exited && result.status == 1, "attempt \(attempt)")
      let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      #expect(json != nil, "attempt \(attempt)")
      let lines = try result.stderrLines.map {
        try maskingOffset(in: $0, of: files[0], function: "fixture_blamed_crash")
      }
      #expect(lines == expected, "attempt \(attempt)")
    }
    let run = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(run.exited && run.status == 78)
    #expect(
      try run.stderrLines.map { try maskingOffset(in: $0, of: files[0], function: "fixture_blamed_crash") }
        == expected + ["plugboard: the deployment has 2 problems; the application was not run"])
  }

  /// Unbounded recursion in a plugin's entry point: the crash handler runs
  /// on its alternate stack, so the plugin is named, with SIGSEGV (stack
  /// overflow) and the recursing function, and set aside, as for any
  /// crash; no hang.
  @Test func aStackOverflowInPluginCodeIsReported() throws {
    let (folder, manifest, file) = try CFixtures.deployment("EntryOverflow", before: ["Healthy"])
    defer { withExtendedLifetime(folder) {} }
    for attempt in 1...3 {
      let result = try Subprocess.plugboard(["list", "--json", "--manifest", manifest])
      #expect(result.exited && result.status == 1, "attempt \(attempt)")
      let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      #expect(json != nil, "attempt \(attempt)")
      #expect(
        try result.stderrLines.map { try maskingOffset(in: $0, of: file, function: "fixture_recurse") }
          == [
            "plugboard: find entry: plugin 'EntryOverflow' (\(file)) crashed with SIGSEGV (stack overflow) in "
              + "libEntryOverflow.so+0x… in its entry point plugboard_entry_v1 — \(CrashReport.disableHint)"
          ], "attempt \(attempt)")
    }
    // `run` refuses the deployment with the status any plugin crash gets.
    let run = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(run.exited && run.status == 78)
    #expect(
      run.stderrLines.first.map(CrashLocation.masked)
        == "plugboard: find entry: plugin 'EntryOverflow' (\(file)) crashed with SIGSEGV (stack overflow) in "
        + "libEntryOverflow.so+0x… in its entry point plugboard_entry_v1 — \(CrashReport.disableHint)")
  }

  /// The `W` lines of a crash record: what the handler writes, parsed
  /// strictly, and which one is blamed.
  @Test func crashSitesAreParsedStrictlyAndTheInnermostPluginFrameIsBlamed() {
    let frame = CrashSite(kind: .frame, offset: 0x1a2b, object: "/p/lib A\t.so", plugin: "A")
    #expect(ProgressEvent(line: Substring(ProgressEvent.crashSite(frame).line)) == .crashSite(frame))
    #expect(
      ProgressEvent(line: "Wa\tdeadbeef\t\t")
        == .crashSite(CrashSite(kind: .fault, offset: 0xdead_beef, object: nil, plugin: nil)))
    for line in [
      "Wx\t1\t\t", "Wf\t\t\t", "Wf\tzz\t\t", "Wf\t1\t\t\t", "Wf\t1\t", "Wff\t1\t\t",
      "Wf\t11111111111111111\t\t",
    ] {
      #expect(ProgressEvent(line: Substring(line)) == nil, "\(line)")
    }
    #expect(frame.location == "lib A\t.so+0x1a2b")
    let libc = CrashSite(kind: .frame, offset: 0x10, object: "/lib/libc.so.6", plugin: nil)
    let fault = CrashSite(kind: .fault, offset: 0, object: "/p/libB.so", plugin: "B")
    #expect(CrashSite.blamed(in: [fault, libc, frame]) == frame)
    #expect(CrashSite.blamed(in: [fault, libc]) == fault)
    #expect(CrashSite.blamed(in: [libc]) == nil)
  }
}
