// Shared by the tests and the manifest fuzzer: Scripts/fuzz-manifest
// compiles this file into its fuzzer, so a recipe the fuzzer found slow is
// read the same way when HostileManifestTests and the corpus replay it.

/// A small input that stands for a manifest of megabytes:
/// `0x00 n head 0x00 middle 0x00 tail` is read as `head + middle × r + tail`.
///
/// libFuzzer keeps inputs small, and the steps that cost more than their
/// input (escapes in one string, one huge key, a quarter of a million
/// unknown keys, an error at the end of a long line) only show on large
/// ones. The size grows with the square of the byte `n`: n = 255 fills
/// ``largest`` (4 MiB), so that most mutated recipes stay small enough to
/// keep the fuzzer fast. Each `0x01` byte of the middle is replaced by the
/// repetition's number, so names can be unique: `"p\u{1}": {}` makes
/// `"p0": {}, "p1": {}`…
struct ManifestRecipe {
  /// The largest manifest a recipe makes by default.
  static let largest = 4 << 20

  let head: [UInt8]
  let middle: [UInt8]
  let tail: [UInt8]
  /// The byte `n`.
  let scale: UInt8

  /// The recipe in `input`, or nil for an input that is not one.
  init?(_ input: [UInt8]) {
    guard input.count >= 2, input[0] == 0 else { return nil }
    let parts = input[2...].split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[1].isEmpty else { return nil }
    self.init(head: Array(parts[0]), middle: Array(parts[1]), tail: Array(parts[2]), scale: input[1])
  }

  init(head: String, middle: String, tail: String, scale: UInt8 = 255) {
    self.init(head: Array(head.utf8), middle: Array(middle.utf8), tail: Array(tail.utf8), scale: scale)
  }

  init(head: [UInt8], middle: [UInt8], tail: [UInt8], scale: UInt8) {
    (self.head, self.middle, self.tail, self.scale) = (head, middle, tail, scale)
  }

  /// The recipe as the fuzzer reads it, for the seed corpus.
  var bytes: [UInt8] { [0, scale] + head + [0] + middle + [0] + tail }

  /// The manifest, up to `largest` bytes, and how many times the middle
  /// was repeated.
  func magnified(largest: Int = Self.largest) -> (text: [UInt8], repetitions: Int) {
    var text = head
    let budget = largest - tail.count
    let factor = Int(scale) + 1
    let limit = text.count + max(0, budget - text.count) / 65_536 * factor * factor
    let numbered = middle.contains(1)
    var repetition = 0
    while text.count + middle.count <= limit {
      if numbered {
        let number = Array(String(repetition).utf8)
        for byte in middle {
          if byte == 1 { text += number } else { text.append(byte) }
        }
      } else {
        text += middle
      }
      repetition += 1
    }
    return (text + tail, repetition)
  }
}
