/// What the dynamic loader reports with `LD_DEBUG=libs` in a child's
/// environment, read from that child's standard error.
enum LoaderTrace {
  /// The environment that makes the loader report.
  static let environment = ["LD_DEBUG": "libs"]

  /// The files whose initialisers ran, in order ("calling init: <file>").
  static func initialised(_ result: ProcessResult) -> [String] {
    result.stderrLines.compactMap { line in
      line.range(of: "calling init: ").map { String(line[$0.upperBound...]) }
    }
  }
}
