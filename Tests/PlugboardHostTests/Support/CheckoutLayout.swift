import Foundation

extension TemporaryDirectory {
  /// Empty `Kit/Package.swift` and `Plugins/Contracts/Package.swift`: what
  /// `plugboard new` looks for to recognise a Plugboard checkout, without
  /// the packages themselves (for tests that only read what it writes).
  func writeCheckoutLayout() throws {
    for package in ["Kit", "Plugins/Contracts"] {
      try FileManager.default.createDirectory(atPath: path + "/" + package, withIntermediateDirectories: true)
      try write(package + "/Package.swift", "")
    }
  }
}
