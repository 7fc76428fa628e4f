import Foundation

/// Runs each in-process scenario in processes of its own, three each, and
/// keeps the pass in which the container was fastest.
///
/// Timed one after another in one process, the scenarios disagreed with
/// the same scenarios run alone: after the first few, each allocation and
/// release cost about 20 ns more (a hand-written `NamedService()` took
/// 35 ns there and 15 ns in a fresh process), on both sides, which made
/// every time ratio look smaller (BENCHMARKS.md, "Method").
/// Some fresh processes land in that slow state too, so one process per
/// scenario is not enough: of three, the pass whose container side was
/// fastest is kept whole (its baseline was measured in the same process,
/// so its ratio and verdict stay consistent).
enum IsolatedRuns {
  /// The flag a child gets: run only the scenario named exactly, and
  /// print its rows as JSON after ``rowsMarker``.
  static let childFlag = "--isolated-child"
  static let rowsMarker = "plugboard-bench-rows: "
  static let passes = 3

  /// The rows of every scenario in `names`, each from the best of
  /// ``passes`` child processes of this executable (`quick` is passed on).
  static func run(_ names: [String], quick: Bool) -> [ResultRow] {
    names.flatMap { name -> [ResultRow] in
      let runs = (0..<passes).map { _ in child(name, quick: quick) }
      var best: [ResultRow]?
      for case .success(let rows) in runs {
        guard let current = best else {
          best = rows
          continue
        }
        if fastest(rows) < fastest(current) { best = rows }
      }
      if let best { return best }
      let reasons = runs.compactMap { result -> String? in
        if case .failure(let failure) = result { return failure.description }
        return nil
      }
      return [.unavailable(name, unit: "-", reason: reasons.first ?? "no pass produced a row")]
    }
  }

  /// The container's median in a pass: the last row is the scenario's own
  /// (graph10_transient's first row is its hand-written floor).
  private static func fastest(_ rows: [ResultRow]) -> Double {
    rows.last?.plugboard.median ?? .infinity
  }

  private static func child(_ name: String, quick: Bool) -> Result<[ResultRow], BenchFailure> {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("plugboard-bench-\(getpid())-\(name).txt").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let process = ChildProcess(
      executable: "/proc/self/exe", arguments: ["--only", name, childFlag] + (quick ? ["--quick"] : []),
      environment: ProcessInfo.processInfo.environment)
    switch process.run(.file(output), timeoutSeconds: 600) {
    case .failure(let failure): return .failure(failure)
    case .success(let run) where run.status != 0:
      return .failure(BenchFailure("\(name) in its own process ended with status \(run.status)"))
    case .success: break
    }
    guard let text = try? String(contentsOfFile: output, encoding: .utf8),
      let line = text.split(separator: "\n").last(where: { $0.hasPrefix(rowsMarker) }),
      let rows = try? decoder.decode([ResultRow].self, from: Data(line.dropFirst(rowsMarker.count).utf8)),
      !rows.isEmpty
    else {
      return .failure(BenchFailure("\(name) in its own process printed no rows"))
    }
    return .success(rows)
  }

  /// What a child prints: its rows, as one line of JSON (a row that could
  /// not be measured holds NaN, written as a string).
  static func report(_ rows: [ResultRow]) -> String {
    let encoder = JSONEncoder()
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    let data = (try? encoder.encode(rows)) ?? Data("[]".utf8)
    return rowsMarker + String(decoding: data, as: UTF8.self)
  }

  private static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return decoder
  }
}
