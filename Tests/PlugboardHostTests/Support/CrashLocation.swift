import Foundation

/// Crash lines name the library and offset of the code that crashed
/// (`libCrash.so+0x5d6`). The offset is the compiler's choice, not the
/// feature: tests that pin a whole crash line compare it with the offset
/// replaced by `…` (CrashBlameTests checks offsets against the symbols).
enum CrashLocation {
  /// `text` with every `.so+0x<hex>` written `.so+0x…`.
  static func masked(_ text: String) -> String {
    text.replacingOccurrences(of: #"\.so\+0x[0-9a-f]+"#, with: ".so+0x…", options: .regularExpression)
  }
}
