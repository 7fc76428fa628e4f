/// What one run of a child process took.
struct ChildRun {
  /// Nanoseconds from just before `posix_spawn` to the first newline the
  /// child wrote to standard output; nil when it wrote none.
  let firstLineNanoseconds: UInt64?
  /// Nanoseconds from just before `posix_spawn` to the child being reaped.
  let exitNanoseconds: UInt64
  /// The exit status, or 128 + the signal that ended the child.
  let status: Int32
  /// `ru_maxrss` in KiB: the child's peak resident size, but never less
  /// than the benchmark's own (see Benchmarks/plugboard-peak-rss/main.c).
  let peakResidentKiB: Int
  /// The first line of standard output, without its line ending.
  let firstLine: String
  /// What the child wrote to standard error, when a checked run kept it.
  var standardError = ""

  var firstLineMilliseconds: Double? { firstLineNanoseconds.map { Double($0) / 1e6 } }
}
