/// Why a fixture the tests build or open (a package, a C library, a
/// pseudo-terminal) is not available: the text the test reports.
struct FixtureFailure: Error, CustomStringConvertible {
  let description: String
}
