import Foundation

/// Two programs launched alternately and timed to their first line, so
/// that drift during the run (page cache, frequency, other load) falls on
/// both alike rather than on whichever ran second.
struct SideBySide {
  let subject: ChildProcess
  let baseline: ChildProcess
  /// Where the children's standard error goes.
  let work: URL

  /// Every timed run of each, in order.
  struct Runs {
    var subject: [ChildRun] = []
    var baseline: [ChildRun] = []

    /// Milliseconds to the first line, as a measurement.
    static func milliseconds(_ runs: [ChildRun]) -> Measurement {
      Measurement(samples: runs.map { $0.firstLineMilliseconds ?? .nan })
    }

    /// Per round, the subject's time beyond the baseline's, divided by
    /// `divisor` (the plugin count), in milliseconds.
    func beyondBaseline(perUnit divisor: Double, at time: (ChildRun) -> UInt64?) -> Measurement {
      Measurement(
        samples: zip(subject, baseline).map { pair in
          guard let subject = time(pair.0), let baseline = time(pair.1) else { return .nan }
          return (Double(subject) - Double(baseline)) / 1e6 / divisor
        })
    }
  }

  /// `times` runs of each after one untimed pair (the first launch after a
  /// build pays for reading the files from disk). The order flips every
  /// round. Stops at the first run that fails.
  func run(times: Int) -> Result<Runs, BenchFailure> {
    var runs = Runs()
    let errorFile = work.appendingPathComponent("stderr.txt")
    for round in -1..<times {
      let subjectFirst = round % 2 == 0
      for isSubject in subjectFirst ? [true, false] : [false, true] {
        switch (isSubject ? subject : baseline).checkedRun(errorFile: errorFile) {
        case .failure(let failure): return .failure(failure)
        case .success(let run) where round >= 0:
          if isSubject { runs.subject.append(run) } else { runs.baseline.append(run) }
        case .success: break
        }
      }
    }
    return .success(runs)
  }
}
