#if canImport(Glibc)
  import Glibc
#endif

/// Median and minimum of repeated timings, in nanoseconds per operation.
struct Measurement: Codable {
  let samples: [Double]

  var median: Double {
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  var minimum: Double { samples.min() ?? .nan }
}

/// How long and how often each scenario is timed.
struct MeasurementPlan {
  let repetitions: Int
  let secondsPerRepetition: Double
  /// Run each body exactly this many times, once (for `valgrind
  /// --tool=callgrind`, which counts instructions rather than time).
  var fixedIterations: Int? = nil
  /// Measure only this side of each comparison (`--side baseline` or
  /// `--side plugboard`), so that an instruction count separates the
  /// hand-written code from the container's.
  var side: MeasuredSide? = nil

  /// What BENCHMARKS.md reports: 5 repetitions of at least 0.5 s.
  static let full = MeasurementPlan(repetitions: 5, secondsPerRepetition: 0.5)
  /// Proves the benchmark still runs (CI); its numbers mean little.
  static let quick = MeasurementPlan(repetitions: 2, secondsPerRepetition: 0.01)
}

/// Which half of a comparison a measurement is.
enum MeasuredSide: String {
  case baseline, plugboard
}

/// Monotonic nanoseconds.
@inline(__always)
func now() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Time spent inside `body` is left out of the measurement that is running
/// (for clean-up that is not part of what is being measured).
func pauseClock(_ body: () -> Void) {
  let start = now()
  body()
  pausedNanoseconds += now() - start
}

nonisolated(unsafe) private var pausedNanoseconds: UInt64 = 0

/// Runs `operation(count)` and returns its duration without paused time.
private func timed(_ count: Int, _ operation: (Int) -> Void) -> Double {
  pausedNanoseconds = 0
  let start = now()
  operation(count)
  return Double(now() - start - pausedNanoseconds)
}

/// Times `operation` (which runs its body `count` times) until each
/// repetition lasts at least the plan's duration, and returns ns per
/// operation for each repetition.
func measure(_ plan: MeasurementPlan, side: MeasuredSide = .plugboard, _ operation: (Int) -> Void)
  -> Measurement
{
  if let only = plan.side, only != side { return Measurement(samples: [.nan]) }
  if let fixed = plan.fixedIterations {
    // For instruction-counting profilers: a known amount of work, once.
    return Measurement(samples: [timed(fixed, operation) / Double(fixed)])
  }
  var count = 64
  // Calibrate: grow the batch until it takes 5 % of a repetition.
  while true {
    let elapsed = timed(count, operation)
    if elapsed >= plan.secondsPerRepetition * 1e9 * 0.05 || count >= 1 << 40 {
      let perOperation = max(elapsed / Double(count), 0.01)
      count = max(count, Int(plan.secondsPerRepetition * 1e9 / perOperation))
      break
    }
    count *= 4
  }
  var samples: [Double] = []
  for _ in 0..<plan.repetitions {
    samples.append(timed(count, operation) / Double(count))
  }
  return Measurement(samples: samples)
}

/// Keeps a value alive and opaque to the optimizer: unoptimized, so the
/// call and its argument cannot be proven useless and removed. The value is
/// taken owned (`consuming`), as code that stores or passes on what it
/// resolved takes it: a reference read without a retain (a stored
/// reference returned +0) is retained to be passed here, and released
/// inside. Without that, a hand-written "stored reference" baseline does no
/// reference counting at all and is not what a caller's code does.
@_optimize(none)
func consume<T>(_ value: consuming T) {}

/// Resolves as application code does (`try`, the error handled) and
/// consumes the instance itself, not an `Optional` of it: the baselines
/// consume the bare instance, and an `Optional` passed to the generic sink
/// costs value-witness calls the hand-written side does not pay.
@inline(__always)
func consumeResolved<T>(_ resolve: () throws -> T) {
  do { consume(try resolve()) } catch { consume(error) }
}
