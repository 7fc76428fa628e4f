import PlugboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// A test-only plugin, version 1.0.0, whose requirements the test chooses:
/// `PLUGBOARD_TEST_REQUIRES_A` holds `Name lower upper` triples separated
/// by `;` (`GreetingProvider 0.0.1 1.0.0`), each becoming
/// `.plugin(Name, lower..<upper)`.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(
    name: "RequirerA", version: "1.0.0", requires: TestRequirements.read("PLUGBOARD_TEST_REQUIRES_A")
  ) { [] }
}

enum TestRequirements {
  static func read(_ variable: String) -> [PluginRequirement] {
    guard let raw = getenv(variable) else { return [] }
    return String(cString: raw).split(separator: ";").compactMap { item in
      let parts = item.split(separator: " ").map(String.init)
      guard parts.count == 3 else { return nil }
      return .plugin(
        parts[0], SemanticVersion(stringLiteral: parts[1])..<SemanticVersion(stringLiteral: parts[2]))
    }
  }
}
