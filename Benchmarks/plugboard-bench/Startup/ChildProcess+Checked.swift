import Foundation

extension ChildProcess {
  /// Runs the child with its output on a terminal and requires it to exit
  /// with status 0 after writing a line; otherwise the failure quotes the
  /// start of its standard error, so the error row says what went wrong.
  /// The run keeps its standard error.
  func checkedRun(errorFile: URL) -> Result<ChildRun, BenchFailure> {
    run(.terminal(errorFile: errorFile.path)).flatMap { run in
      var run = run
      let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
      run.standardError = errors
      guard run.status != 0 || run.firstLineNanoseconds == nil else { return .success(run) }
      let firstError = errors.split(separator: "\n").first.map { String($0.prefix(200)) } ?? "no message"
      let name = (executable as NSString).lastPathComponent
      return .failure(BenchFailure("\(name) exited with status \(run.status): \(firstError)"))
    }
  }
}
