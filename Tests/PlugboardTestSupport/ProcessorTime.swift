#if canImport(Glibc)
  import Glibc
#endif

/// The processor time a computation takes on the calling thread: what it
/// costs, whatever else the machine runs at the same time.
///
/// A test that guards against a step quadratic in its input's size must
/// not time the wall clock: on a machine busy with other builds and tests
/// the wall time of a linear step grew past a minute and the guard fired,
/// though nothing was slow. The thread's processor time does not grow while
/// it waits for a processor, so a bound on it can be generous for the
/// linear step and still far below the quadratic one.
///
/// ```swift
/// let (manifest, spent) = ProcessorTime.measure { ManifestReader.decode(bytes, path: path) }
/// #expect(spent < .seconds(60))  // linear: 1 s here; quadratic: 200 s
/// ```
public enum ProcessorTime {
  /// The processor time the calling thread has used so far.
  public static var now: Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }

  /// Runs `body` and returns what it returned and the processor time the
  /// calling thread spent in it. `body` must do its work on this thread:
  /// work it hands to other threads is not counted.
  public static func measure<Value>(_ body: () throws -> Value) rethrows -> (value: Value, spent: Duration) {
    let start = now
    let value = try body()
    return (value, now - start)
  }
}
