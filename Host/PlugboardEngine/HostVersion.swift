import PlugboardKit

/// Versions of this host, as `plugboard --version` prints them.
package enum HostVersion {
  package static let plugboard = "0.1.0"

  /// `plugboard 0.1.0 (PlugboardKit 0.1.0+3596…, plugin ABI 1, Swift 6.3.1)`.
  package static var line: String {
    "plugboard \(plugboard) (PlugboardKit \(PlugboardBuild.loadedKitVersion), plugin ABI "
      + "\(PlugboardBuild.abiVersion), Swift \(PlugboardBuild.compilerVersion))"
  }
}
