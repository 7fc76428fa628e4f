// The libFuzzer entry point over the manifest reader's parse and decode.
// Built only by `Scripts/fuzz-manifest`, which compiles it into the
// PlugboardHost module (so it reaches the internal `ManifestDecoder`) with
// `-sanitize=fuzzer,address`; SwiftPM never sees this folder, because a
// program without `main` cannot link in a normal build.
import Glibc

/// One input: parse and decode it as `ManifestReader` does, then check what
/// must hold for any input. A failed check aborts, which libFuzzer reports
/// as a crash with the input saved.
@_cdecl("LLVMFuzzerTestOneInput")
public func manifestFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let path = "/fuzz/plugins.json"
  let document: JSONValue
  do {
    document = try JSONParser.parse(bytes)
  } catch {
    checkSyntaxError(error, in: bytes)
    checkRendering(.syntax(path: path, error), path: path)
    return 0
  }
  checkRoundTrip(document)
  switch ManifestDecoder.decode(document, path: path) {
  case .success(let manifest): checkManifest(manifest)
  case .failure(let error):
    if case .invalid(_, let problems) = error {
      require(!problems.isEmpty, "a manifest was refused without a single problem")
    }
    checkRendering(error, path: path)
  }
  return 0
}

private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  guard !condition else { return }
  let line = Array("manifest fuzzer: invariant broken: \(message())\n".utf8)
  _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
  abort()
}

/// The position points into the text: a line that exists, a column from 1.
private func checkSyntaxError(_ error: JSONSyntaxError, in bytes: [UInt8]) {
  let lines = bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
  require((1...lines).contains(error.line), "syntax error on line \(error.line) of \(lines)")
  require(error.column >= 1, "syntax error in column \(error.column)")
  require(!error.message.isEmpty, "syntax error without a message")
}

/// Every line names the manifest; nothing renders to an empty report.
private func checkRendering(_ error: ManifestError, path: String) {
  let lines = error.lines
  require(!lines.isEmpty, "a manifest error renders to no lines")
  for line in lines {
    require(line.contains(path), "a manifest error line does not name the manifest: \(line)")
  }
}

/// Rendering a parsed value back to JSON and parsing that gives the same
/// value: the parser keeps every string, number, key and member order.
private func checkRoundTrip(_ document: JSONValue) {
  var text = ""
  render(document, into: &text)
  do {
    let again = try JSONParser.parse(text)
    require(again == document, "parse(render(value)) differs from value for \(text)")
  } catch {
    require(false, "the rendering of a parsed value is not valid JSON (\(error)): \(text)")
  }
}

private func render(_ value: JSONValue, into text: inout String) {
  switch value {
  case .object(let members):
    text += "{"
    for (offset, member) in members.enumerated() {
      if offset > 0 { text += "," }
      quote(member.key, into: &text)
      text += ":"
      render(member.value, into: &text)
    }
    text += "}"
  case .array(let elements):
    text += "["
    for (offset, element) in elements.enumerated() {
      if offset > 0 { text += "," }
      render(element, into: &text)
    }
    text += "]"
  case .string(let string): quote(string, into: &text)
  case .number(let number): text += number
  case .bool(let flag): text += flag ? "true" : "false"
  case .null: text += "null"
  }
}

private func quote(_ string: String, into text: inout String) {
  text += "\""
  for scalar in string.unicodeScalars {
    switch scalar {
    case "\"": text += "\\\""
    case "\\": text += "\\\\"
    case "\u{00}"..."\u{1F}":
      let hex = String(scalar.value, radix: 16)
      text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    default: text.unicodeScalars.append(scalar)
    }
  }
  text += "\""
}

/// What a decoded manifest promises the loader.
private func checkManifest(_ manifest: Manifest) {
  var names: Set<String> = []
  for (offset, plugin) in manifest.plugins.enumerated() {
    require(
      !plugin.name.isEmpty && !plugin.path.isEmpty, "plugins[\(plugin.index)] has an empty name or path")
    require(names.insert(plugin.name).inserted, "two plugins are called \(plugin.name)")
    require(plugin.index == offset, "plugins[\(plugin.index)] decoded in place \(offset)")
  }
  let declared = manifest.profiles.map(\.name)
  require(Set(declared).count == declared.count, "a profile is declared twice")
  let strings =
    manifest.plugins.flatMap { [$0.name, $0.path] + ($0.profiles?.expressions ?? []) } + declared
    + manifest.pluginRoots
    + manifest.profiles.flatMap { [$0.description ?? ""] + $0.services.flatMap { [$0.type, $0.name] } }
  for string in strings {
    require(
      !string.unicodeScalars.contains(where: Terminal.isControl),
      "a control character was kept in \(string.debugDescription)")
  }
  for plugin in manifest.plugins {
    guard let condition = plugin.profiles else { continue }
    let matched = declared.filter { condition.matches($0) }.count
    require(
      matched > 0 && matched < declared.count,
      "plugins[\(plugin.index)].profiles \(condition.expressions) matches \(matched) of \(declared.count) profiles"
    )
    require(
      Set(condition.expressions).count == condition.expressions.count, "a profile condition repeats itself")
  }
  if let active = manifest.activeProfile {
    require(declared.contains(active), "the active profile \(active) is not declared")
  } else {
    require(declared.isEmpty, "profiles are declared but none is active")
  }
}
