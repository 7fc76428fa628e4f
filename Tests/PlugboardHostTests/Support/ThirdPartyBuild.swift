import AppContracts
import Foundation
import PlugboardKit

/// The Analytics plugin, built from its own package with `swift build
/// --package-path`, as its vendor would: once per test run, into a scratch
/// folder beside this build's products, so later runs are incremental.
enum ThirdPartyBuild {
  typealias Failure = FixtureFailure

  /// The built `libAnalytics.so`, or why it could not be built.
  static let analytics: Result<String, Failure> = {
    let package = BuildProducts.packageRoot + "/Plugins/ThirdParty/Analytics"
    // One scratch folder per stamp of PlugboardKit and of the contracts: an
    // incremental build of this package keeps the old inlined code of both,
    // and does not notice files added to them, so a change gets a fresh folder.
    let contracts = AppContracts._plugboardStamp_AppContracts()
    let scratch = URL(
      fileURLWithPath: BuildProducts.directory
        + "/../../plugboard-tests-thirdparty-\(PlugboardBuild.sourceFingerprint)-\(String(contracts, radix: 16))"
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
