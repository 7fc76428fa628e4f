import Foundation

/// `swift build` of a package (release unless told otherwise), its output
/// kept in a log file that the failure message points to.
struct ReleaseBuild {
  let package: URL
  let log: URL
  var configuration = "release"
  var scratch: URL? = nil

  func run(environment: [String: String]) -> Result<Void, BenchFailure> {
    var arguments = ["build", "-c", configuration, "--package-path", package.path]
    if let scratch { arguments += ["--scratch-path", scratch.path] }
    print("note: building \(package.lastPathComponent) (\(configuration)); log: \(log.path)")
    let swift = ChildProcess(
      executable: "swift", arguments: arguments, environment: environment, searchesPath: true)
    switch swift.run(.file(log.path), timeoutSeconds: 3_600) {
    case .failure(let failure): return .failure(failure)
    case .success(let run) where run.status != 0:
      return .failure(BenchFailure("swift build failed (status \(run.status)); see \(log.path)"))
    case .success: return .success(())
    }
  }
}
