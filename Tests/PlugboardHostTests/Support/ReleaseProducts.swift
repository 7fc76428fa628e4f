import Foundation
import Testing

/// Where a release build's products are, for the tests of the host built
/// for release (``ReleaseHostTests``). This suite's own build is debug, so
/// they come from elsewhere: `PLUGBOARD_RELEASE_PRODUCTS` names their
/// folder (`.ci/run` sets it after its release builds). Without it those
/// tests are skipped, with ``missing`` shown; with it, a product missing
/// from that folder fails them.
enum ReleaseProducts {
  /// The folder `PLUGBOARD_RELEASE_PRODUCTS` names, relative to the
  /// package's root unless absolute; nil when it is not set.
  static let directory: String? = ProcessInfo.processInfo.environment["PLUGBOARD_RELEASE_PRODUCTS"].map {
    $0.hasPrefix("/") ? $0 : BuildProducts.packageRoot + "/" + $0
  }

  /// Why the tests are skipped without it.
  static let missing: Comment = """
    needs a release build: PLUGBOARD_RELEASE_PRODUCTS=.build/release after swift build -c release \
    (plugboard, plugboard-host, Healthy and the sample's plugins; .ci/run builds them and sets it)
    """

  /// The path of `product` in that folder; fails when the variable is not
  /// set or the folder holds no such file.
  static func path(_ product: String) throws -> String {
    let directory = try #require(directory, "PLUGBOARD_RELEASE_PRODUCTS is not set")
    let path = directory + "/" + product
    try #require(
      FileManager.default.fileExists(atPath: path),
      "PLUGBOARD_RELEASE_PRODUCTS is \(directory), which holds no \(product)")
    return path
  }
}
