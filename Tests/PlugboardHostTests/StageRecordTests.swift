import PlugboardSupervision
import Testing

@testable import PlugboardEngine

/// The stage record the supervised child shares with its parent: what the
/// parent reads is always a whole stage the child published, bounded, and
/// the deadline follows the stage the record names.
@Suite struct StageRecordTests {
  private func record() throws -> StageRecord {
    try #require(StageRecord.create())
  }

  @Test func anEmptyRecordNamesNoStage() throws {
    let record = try record()
    defer { record.destroy() }
    let snapshot = try #require(record.read())
    #expect(snapshot.sequence == 0)
    #expect(snapshot.stage == nil && snapshot.plugin == nil && snapshot.file == nil)
    #expect(snapshot.phase == .bringingUp)
  }

  @Test func aPublishedStageReadsBackWithItsPhase() throws {
    let record = try record()
    defer { record.destroy() }
    record.publish(.open, plugin: "Auth\t\n\\", file: "/x y/libAuth.so")
    record.publish(.validate, plugin: nil, file: nil)
    var snapshot = try #require(record.read())
    #expect(snapshot.sequence == 2)
    #expect(snapshot.stage == .validate && snapshot.plugin == nil && snapshot.file == nil)
    record.publish(.open, plugin: "Auth\t\n\\", file: "/x y/libAuth.so")
    record.enter(.reporting)
    snapshot = try #require(record.read())
    #expect(snapshot.stage == .open && snapshot.plugin == "Auth\t\n\\" && snapshot.file == "/x y/libAuth.so")
    #expect(snapshot.phase == .reporting)
    #expect(snapshot.sequence == 4)
  }

  /// Plugin code runs in the child and can scribble over the shared
  /// record: the child's own copy of the last stage, taken when it enters
  /// a phase, is bounded as the parent's is, instead of copying as many
  /// words as the scribbled lengths say (past its buffer: SIGSEGV).
  @Test func aScribbledLengthIsBoundedInTheChildsCopy() throws {
    let record = try record()
    defer { record.destroy() }
    record.publish(.open, plugin: "Auth", file: "/lib/libAuth.so")
    // Publication 1 lives in the second slot: after the 8-byte count and
    // one slot (three words, then the two texts); its lengths are its
    // third word.
    let slot = 8 + 24 + Int(PLUGBOARD_STAGE_PLUGIN_CAPACITY) + Int(PLUGBOARD_STAGE_FILE_CAPACITY)
    UnsafeMutableRawPointer(record.pointer).storeBytes(
      of: 0x7fff_ffff_7fff_ffff as UInt64, toByteOffset: slot + 16, as: UInt64.self)
    record.enter(.reporting)
    let snapshot = try #require(record.read())
    #expect(snapshot.stage == .open)
    #expect(snapshot.phase == .reporting)
    #expect((snapshot.plugin?.utf8.count ?? 0) <= Int(PLUGBOARD_STAGE_PLUGIN_CAPACITY))
    #expect((snapshot.file?.utf8.count ?? 0) <= Int(PLUGBOARD_STAGE_FILE_CAPACITY))
  }

  /// A child killed while it fills the next slot leaves it unpublished:
  /// the parent still reads the stage before, whole.
  @Test func aHalfWrittenStageIsNeverRead() throws {
    let record = try record()
    defer { record.destroy() }
    record.publish(.open, plugin: "Auth", file: "/lib/libAuth.so")
    let long = String(repeating: "x", count: 900)
    long.withCString { text in
      plugboard_stage_record_prepare(record.pointer, 9, 0, text, 900, text, 900)
    }
    let snapshot = try #require(record.read())
    #expect(snapshot.sequence == 1)
    #expect(snapshot.stage == .open && snapshot.plugin == "Auth" && snapshot.file == "/lib/libAuth.so")
  }

  /// A copy the child overwrote while the parent took it is taken
  /// again: one publication meanwhile went to the other slot and leaves
  /// the copy whole; a second one went into the slot being copied.
  @Test func aCopyOverwrittenWhileItWasTakenIsRejected() throws {
    let record = try record()
    defer { record.destroy() }
    record.publish(.open, plugin: "A", file: "/a")
    var raw = plugboard_stage_snapshot()
    let sequence = plugboard_stage_record_copy(record.pointer, &raw)
    #expect(plugboard_stage_record_unchanged(record.pointer, sequence))
    record.publish(.open, plugin: "B", file: "/b")
    #expect(plugboard_stage_record_unchanged(record.pointer, sequence))
    record.publish(.open, plugin: "C", file: "/c")
    #expect(!plugboard_stage_record_unchanged(record.pointer, sequence))
    #expect(record.read()?.plugin == "C")
  }

  /// Plugin names and paths are hostile: too long, they are cut at a
  /// character boundary and marked, within the record's bounds.
  @Test func aLongNameOrPathIsCutWithAVisibleMark() throws {
    let record = try record()
    defer { record.destroy() }
    let name = "N" + String(repeating: "é", count: 400)
    let path = "/" + String(repeating: "dir/", count: 600) + "lib.so"
    record.publish(.makeAssemblies, plugin: name, file: path)
    let snapshot = try #require(record.read())
    let plugin = try #require(snapshot.plugin)
    let file = try #require(snapshot.file)
    #expect(plugin.hasSuffix("…") && file.hasSuffix("…"))
    #expect(plugin.utf8.count <= Int(PLUGBOARD_STAGE_PLUGIN_CAPACITY))
    #expect(file.utf8.count <= Int(PLUGBOARD_STAGE_FILE_CAPACITY))
    #expect(plugin.utf8.count > Int(PLUGBOARD_STAGE_PLUGIN_CAPACITY) - 8)
    #expect(name.hasPrefix(plugin.dropLast()))
    #expect(path.hasPrefix(file.dropLast()))
    #expect(!plugin.contains("\u{FFFD}"))
  }

  private static let second: Int64 = 1_000_000_000

  private func watch(in stage: LoadStage, plugin: String?, started: Int64, sequence: UInt64) -> StageWatch {
    var watch = StageWatch(timeout: .seconds(1))
    watch.apply(
      StageSnapshot(
        sequence: sequence, started: started, stage: stage, phase: .bringingUp, plugin: plugin,
        file: plugin.map { "/lib/lib\($0).so" }))
    return watch
  }

  /// At the deadline the parent looks again: a stage that moved is timed
  /// from its own start; one that did not is a hang.
  @Test func theParentReArmsWhenTheStageMovedAndStopsOneThatDidNot() {
    var watch = watch(in: .open, plugin: "Slow", started: 5 * Self.second, sequence: 3)
    #expect(watch.wake(now: 5 * Self.second) == .at(6 * Self.second))
    #expect(watch.wake(now: 6 * Self.second) == .hung)
    watch.apply(
      StageSnapshot(
        sequence: 4, started: 5 * Self.second + Self.second / 2, stage: .findEntry, phase: .bringingUp,
        plugin: "Slow", file: "/lib/libSlow.so"))
    #expect(watch.wake(now: 6 * Self.second) == .at(6 * Self.second + Self.second / 2))
    // A start in the future cannot put the deadline off.
    watch.started = 100 * Self.second
    #expect(watch.wake(now: 6 * Self.second) == .at(7 * Self.second))
  }

  /// plugboard's own stages have no deadline, but the child may start a
  /// plugin's at any moment without a word: the parent looks again one
  /// timeout later. After bring-up, or while a crash is written, it
  /// waits for the child's end.
  @Test func withoutAStageDeadlineTheParentLooksAgainOneTimeoutLater() {
    var watch = watch(in: .validate, plugin: nil, started: 0, sequence: 1)
    #expect(watch.wake(now: 3 * Self.second) == .at(4 * Self.second))
    watch = self.watch(in: .resolveApplication, plugin: nil, started: 0, sequence: 1)
    #expect(watch.wake(now: 3 * Self.second) == .hung)
    watch.phase = .running
    #expect(watch.wake(now: 3 * Self.second) == .never)
    watch = self.watch(in: .open, plugin: "Crash", started: 0, sequence: 1)
    watch.apply(.crash(signal: 11, message: nil))
    #expect(watch.wake(now: 3 * Self.second) == .never)
  }
}
