import Foundation

/// A fresh temporary folder for one scenario's manifests and logs, removed
/// when the scenario is done.
final class WorkFolder {
  let url: URL

  init(_ name: String) throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("plugboard-bench-\(getpid())-\(name)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }
}
