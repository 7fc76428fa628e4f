// The libFuzzer entry point over the signature envelope, allowed signers
// and revoked keys readers. Built only by `Scripts/fuzz-signatures`, which
// compiles it into the PlugboardSignatures module with
// `-sanitize=fuzzer,address`; SwiftPM never sees this folder, because a
// program without `main` cannot link in a normal build.
import Glibc

/// One input, read three ways. Besides "no crash, no hang": a refusal
/// renders to one line with no control character, and an accepted envelope
/// verifies or refuses with a reason (never traps) over any message.
@_cdecl("LLVMFuzzerTestOneInput")
public func signatureFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  do {
    let signature = try SSHSignature(armored: input)
    do {
      try signature.verify(message: input, namespace: SSHSignature.pluginNamespace)
    } catch {
      checkRendering(error)
    }
  } catch {
    checkRendering(error)
  }
  if let blob = try? SSHSignature(blob: input) {
    try? blob.verify(messageDigest: [], namespace: blob.namespace)
  }
  do {
    let signers = try AllowedSigners(bytes: input, file: "allowed_signers")
    for entry in signers.entries {
      _ = entry.principals.matches("plugin-name")
      _ = entry.namespaces?.matches(SSHSignature.pluginNamespace)
    }
  } catch {
    checkRendering(error)
  }
  do {
    _ = try RevokedKeys(bytes: input, file: "revoked_keys")
  } catch {
    checkRendering(error)
  }
  return 0
}

/// A refusal is one line of printable text: the messages show bytes from
/// hostile files only through `Printable`.
private func checkRendering(_ error: SignatureError) {
  for byte in error.description.utf8 where byte < 0x20 || byte == 0x7F {
    let message = Array("a rendered refusal holds the control byte \(byte): \(error)\n".utf8)
    _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
  }
}
