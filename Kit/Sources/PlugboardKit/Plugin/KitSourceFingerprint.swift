// Written by Scripts/kit-fingerprint --write; see that script.
extension PlugboardBuild {
  /// A hash of PlugboardKit's sources (this file excluded), part of
  /// ``kitVersion``, so that plugins built against other sources are
  /// refused even under the same release number.
  @_alwaysEmitIntoClient
  public static var sourceFingerprint: String { "9f0fa741fe1309fb" }
}
