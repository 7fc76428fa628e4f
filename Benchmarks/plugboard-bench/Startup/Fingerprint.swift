import Foundation

/// A 64-bit FNV-1a digest of texts and files: enough to tell "unchanged"
/// from "changed" for the build cache, with no dependency.
struct Fingerprint {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(_ bytes: some Sequence<UInt8>) {
    for byte in bytes {
      value ^= UInt64(byte)
      value = value &* 0x0000_0100_0000_01b3
    }
    // A separator, so ("ab", "c") and ("a", "bc") differ.
    value ^= 0xff
    value = value &* 0x0000_0100_0000_01b3
  }

  mutating func add(_ text: String) { add(text.utf8) }

  /// Every regular file under `folder`, in a stable order, with its
  /// relative path; a folder that cannot be read adds nothing.
  mutating func addTree(_ folder: URL) {
    let paths = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? []
    for path in paths.sorted() {
      guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) else {
        continue
      }
      add(path)
      add(data)
    }
  }

  var hex: String { String(value, radix: 16) }
}
