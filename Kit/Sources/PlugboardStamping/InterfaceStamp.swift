/// The stamp of a module's interface: a 64-bit FNV-1a hash of its source
/// files' tokens (see ``SourceTokenizer``), so it changes with any change to
/// a declaration and not with comments or formatting.
///
/// The host compares the stamp a plugin recorded for a shared module when
/// it was compiled with the stamp the loaded module exports, and
/// PlugboardKit's own `sourceFingerprint` is this stamp of its sources.
public enum InterfaceStamp {
  /// One source file: its path relative to the module's folder (part of the
  /// stamp, since a declaration's file decides what `private` means), and
  /// its text.
  public struct SourceFile: Sendable {
    public let path: String
    public let text: String

    public init(path: String, text: String) {
      self.path = path
      self.text = text
    }

    /// C for `.c` and `.h` files, Swift for everything else.
    var language: SourceTokenizer.Language {
      path.hasSuffix(".c") || path.hasSuffix(".h") ? .c : .swift
    }
  }

  /// The stamp of `files`, whatever their order, as 16 lowercase hex digits.
  public static func of(_ files: [SourceFile]) -> String {
    var hash = FNV1a()
    for file in files.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }) {
      hash.add(field: file.path)
      let tokens = SourceTokenizer.tokens(of: file.text, language: file.language)
      hash.add(field: String(tokens.count))
      for token in tokens { hash.add(field: token) }
    }
    return hex(hash.value)
  }

  /// `value` as 16 lowercase hex digits, as stamps are written.
  public static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}

/// FNV-1a, 64 bits, over fields each prefixed with its length, so that no
/// two different token sequences feed it the same bytes.
private struct FNV1a {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(field: String) {
    var length = UInt64(field.utf8.count)
    for _ in 0..<8 {
      add(UInt8(truncatingIfNeeded: length))
      length >>= 8
    }
    for byte in field.utf8 { add(byte) }
  }

  private mutating func add(_ byte: UInt8) {
    value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
  }
}
