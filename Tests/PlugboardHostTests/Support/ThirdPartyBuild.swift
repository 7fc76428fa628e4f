import Foundation
import PlugboardKit

/// The Analytics plugin, built from its own package with `swift build
/// --package-path`, as its vendor would: once per test run, into a scratch
/// folder beside this build's products, so later runs are incremental.
enum ThirdPartyBuild {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The built `libAnalytics.so`, or why it could not be built.
  static let analytics: Result<String, Failure> = {
    let package = BuildProducts.packageRoot + "/Plugins/ThirdParty/Analytics"
    // One scratch folder per PlugboardKit source fingerprint: an incremental
    // build of this package does not notice files added to PlugboardKit,
    // which it depends on by path, so new Kit sources get a fresh folder.
    let scratch = URL(
      fileURLWithPath: BuildProducts.directory
        + "/../../plugboard-tests-thirdparty-\(PlugboardBuild.sourceFingerprint)"
    ).standardizedFileURL.path
    do {
      let result = try Subprocess.run(
        "/usr/bin/env", ["swift", "build", "--package-path", package, "--scratch-path", scratch])
      guard result.exited, result.status == 0 else {
        return .failure(Failure(description: "swift build failed:\n\(result.stdout)\(result.stderr)"))
      }
      // Canonical, as plugboard prints it (`debug` is a symbolic link).
      return .success(URL(fileURLWithPath: scratch + "/debug/libAnalytics.so").resolvingSymlinksInPath().path)
    } catch {
      return .failure(Failure(description: "cannot run swift build: \(error)"))
    }
  }()
}
