import Foundation
import PlugboardDigest
import Testing

@testable import PlugboardEngine

@Suite struct SHA256Tests {
  private func hex(_ text: String) -> String {
    SHA256.hash(Array(text.utf8)).hex
  }

  /// FIPS 180-4's examples, as published by NIST (SHA-256 "one block",
  /// "two block" and "long" messages) and the empty message.
  @Test func matchesTheNISTVectors() {
    #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      hex(
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
          + "mnopqrstnopqrstu") == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    #expect(
      SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)).hex
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// Lengths around the 56-byte padding limit and the 64-byte block, fed in
  /// two pieces split at every position (and in single bytes), all giving
  /// the digest of the whole.
  @Test(arguments: [
    (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
    (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
    (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
    (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
    (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
  ])
  func handlesBlockBoundariesInAnyPieces(length: Int, digest: String) {
    let message = [UInt8](repeating: UInt8(ascii: "a"), count: length)
    for split in 0...length {
      var hasher = SHA256()
      hasher.update(Array(message[..<split]))
      hasher.update(Array(message[split...]))
      #expect(hasher.finalize().hex == digest, "split at \(split)")
    }
    var bytewise = SHA256()
    for byte in message { bytewise.update([byte]) }
    #expect(bytewise.finalize().hex == digest)
  }

  /// A file several times the read size is hashed piece by piece to the
  /// same digest as the whole.
  @Test func hashesAFileInPieces() throws {
    let folder = try TemporaryDirectory()
    let path = folder.path + "/million"
    try Data(repeating: UInt8(ascii: "a"), count: 1_000_000).write(to: URL(fileURLWithPath: path))
    #expect(
      try SHA256.hash(file: path).get().hex
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func refusesWhatIsNotARegularFile() throws {
    let folder = try TemporaryDirectory()
    #expect(throws: SystemCallError("open \(folder.path)", reason: "not a regular file")) {
      try SHA256.hash(file: folder.path).get()
    }
    #expect(throws: SystemCallError("open /nonexistent/lib.so", reason: "No such file or directory")) {
      try SHA256.hash(file: "/nonexistent/lib.so").get()
    }
  }
}
