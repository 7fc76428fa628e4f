import PlugboardSupervision

/// Where the supervised child is, in memory it shares with its parent: the
/// child records every stage with a few stores and no system call, and the
/// parent reads it only when a stage's deadline comes or the child ends
/// (see `plugboard_stage_record.h` for the two slots and the seqlock that
/// keep a half-written stage from ever being read).
///
/// Mapped before the fork (by the launcher, when it forked), unmapped by the parent once the child is
/// reaped. Plugin code runs in the child and could write anything here, so
/// the parent bounds what it reads and trusts nothing else.
struct StageRecord: @unchecked Sendable {
  // @unchecked: the memory is shared with another process by design; the
  // C functions do every access atomically.
  let pointer: OpaquePointer

  /// A new, empty record, or nil when the memory cannot be mapped.
  static func create() -> StageRecord? {
    plugboard_stage_record_create().map(StageRecord.init(pointer:))
  }

  /// The record in the launcher's record file `descriptor` (see
  /// ``LauncherHandoff``), or nil when it cannot be mapped.
  static func map(descriptor: Int32) -> StageRecord? {
    plugboard_stage_record_map(descriptor).map(StageRecord.init(pointer:))
  }

  func destroy() {
    plugboard_stage_record_destroy(pointer)
  }

  /// The child: `stage` begins, for `plugin`'s `file` when it is a
  /// plugin's, in `phase`. A name or path longer than the record keeps is
  /// cut and ends with "…".
  func publish(_ stage: LoadStage, plugin: String?, file: String?, phase: StageWatch.Phase = .bringingUp) {
    Self.withText(plugin) { plugin, pluginLength in
      Self.withText(file) { file, fileLength in
        plugboard_stage_record_publish(
          pointer, Self.code(of: stage), phase.code, plugin, pluginLength, file, fileLength)
      }
    }
  }

  /// The child: bring-up is over; the stage stays as it was.
  func enter(_ phase: StageWatch.Phase) {
    plugboard_stage_record_enter_phase(pointer, phase.code)
  }

  /// The parent: the stage the child last published; nil only if the
  /// child kept publishing faster than one copy takes.
  func read() -> StageSnapshot? {
    var raw = plugboard_stage_snapshot()
    guard plugboard_stage_record_read(pointer, &raw) else { return nil }
    let stages = LoadStage.allCases
    let stage = raw.stage >= 0 && Int(raw.stage) < stages.count ? stages[Int(raw.stage)] : nil
    let plugin = withUnsafeBytes(of: raw.plugin) { Self.text($0, length: raw.plugin_length) }
    let file = withUnsafeBytes(of: raw.file) { Self.text($0, length: raw.file_length) }
    return StageSnapshot(
      sequence: raw.sequence, started: raw.started, stage: stage, phase: StageWatch.Phase(code: raw.phase),
      plugin: plugin, file: file)
  }

  private static func code(of stage: LoadStage) -> Int32 {
    Int32(LoadStage.allCases.firstIndex(of: stage) ?? -1)
  }

  private static func withText(_ text: String?, _ body: (UnsafePointer<CChar>?, Int) -> Void) {
    guard var text else { return body(nil, -1) }
    text.withUTF8 { bytes in
      bytes.withMemoryRebound(to: CChar.self) { body($0.baseAddress, $0.count) }
    }
  }

  private static func text(_ bytes: UnsafeRawBufferPointer, length: Int32) -> String? {
    guard length >= 0 else { return nil }
    return String(decoding: bytes.prefix(Int(length)), as: UTF8.self)
  }
}

/// The child's stage as the parent copied it from the ``StageRecord``.
struct StageSnapshot: Equatable, Sendable {
  /// Stages published so far; it moves whenever the stage changes.
  var sequence: UInt64
  /// When the stage began, in nanoseconds of `CLOCK_MONOTONIC`.
  var started: Int64
  var stage: LoadStage?
  var phase: StageWatch.Phase
  var plugin: String?
  var file: String?
}

extension StageWatch.Phase {
  fileprivate var code: Int32 {
    switch self {
    case .bringingUp: 0
    case .reporting: 1
    case .running: 2
    }
  }

  /// An unknown code (scribbled memory) reads as bringing up, the phase
  /// with a deadline.
  fileprivate init(code: Int32) {
    self = code == 1 ? .reporting : code == 2 ? .running : .bringingUp
  }
}
