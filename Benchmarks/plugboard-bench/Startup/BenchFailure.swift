/// Why a process-level scenario could not be measured. The scenario reports
/// it in an error row and the benchmark carries on with the others.
struct BenchFailure: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) { self.description = description }
}
