#if canImport(Glibc)
  import Glibc
#endif

/// Median and minimum of repeated timings, in nanoseconds per operation.
struct Measurement {
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

  /// What BENCHMARKS.md reports: 5 repetitions of at least 0.5 s.
  static let full = MeasurementPlan(repetitions: 5, secondsPerRepetition: 0.5)
  /// Proves the benchmark still runs (CI); its numbers mean little.
  static let quick = MeasurementPlan(repetitions: 2, secondsPerRepetition: 0.01)
}

/// Monotonic nanoseconds.
@inline(__always)
func now() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Times `operation` (which runs its body `count` times) until each
/// repetition lasts at least the plan's duration, and returns ns per
/// operation for each repetition.
func measure(_ plan: MeasurementPlan, _ operation: (Int) -> Void) -> Measurement {
  if let fixed = plan.fixedIterations {
    // For instruction-counting profilers: a known amount of work, once.
    let start = now()
    operation(fixed)
    return Measurement(samples: [Double(now() - start) / Double(fixed)])
  }
  var count = 64
  // Calibrate: grow the batch until it takes 5 % of a repetition.
  while true {
    let start = now()
    operation(count)
    let elapsed = Double(now() - start)
    if elapsed >= plan.secondsPerRepetition * 1e9 * 0.05 || count >= 1 << 40 {
      let perOperation = max(elapsed / Double(count), 0.01)
      count = max(count, Int(plan.secondsPerRepetition * 1e9 / perOperation))
      break
    }
    count *= 4
  }
  var samples: [Double] = []
  for _ in 0..<plan.repetitions {
    let start = now()
    operation(count)
    samples.append(Double(now() - start) / Double(count))
  }
  return Measurement(samples: samples)
}

/// Keeps a value alive and opaque to the optimizer: unoptimized, so the
/// call and its argument cannot be proven useless and removed.
@_optimize(none)
func consume<T>(_ value: T) {}
