// The libFuzzer entry point over the manifest reader's parse and decode.
// Built only by `Scripts/fuzz-manifest`, which compiles it into the
// PlugboardEngine module (so it reaches the internal `ManifestDecoder`) with
// `-sanitize=fuzzer,address`; SwiftPM never sees this folder, because a
// program without `main` cannot link in a normal build.
import Glibc
import PlugboardKit

/// One input: parse and decode it as `ManifestReader` does, then check what
/// must hold for any input. A failed check aborts, which libFuzzer reports
/// as a crash with the input saved. An input that starts with a zero byte
/// is a recipe for a manifest of megabytes (see ``ManifestRecipe``, in
/// Tests/PlugboardHostTests/Support, which the tests share); a decoded
/// manifest then has each of its profiles chosen and applied.
@_cdecl("LLVMFuzzerTestOneInput")
public func manifestFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let bytes = ManifestRecipe(input)?.magnified().text ?? input
  let path = "/fuzz/plugins.json"
  let tape: JSONTape
  do {
    tape = try JSONParser.tape(bytes)
  } catch {
    checkSyntaxError(error, in: bytes)
    checkRendering(.syntax(path: path, error), path: path)
    return 0
  }
  let document = tape.value(at: tape.root)
  let containsControlCharacter = tape.containsControlCharacter
  checkRoundTrip(document)
  require(
    containsControlCharacter == holdsControlCharacter(document),
    "the parser said containsControlCharacter: \(containsControlCharacter), the strings say otherwise")
  switch ManifestDecoder.decode(tape, path: path) {
  case .success(let manifest):
    checkManifest(manifest)
    checkProfileChoices(manifest, input: input)
  case .failure(let error):
    if case .invalid(_, let problems) = error {
      require(!problems.isEmpty, "a manifest was refused without a single problem")
      require(
        problems.count <= ManifestDecoder.reportedProblemLimit + 1,
        "\(problems.count) problems reported, past the limit of \(ManifestDecoder.reportedProblemLimit)")
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

/// Whether any key or string of `value` holds a control character, found
/// the slow way: the parser's flag, which spares the decoder this walk,
/// must agree with it.
private func holdsControlCharacter(_ value: JSONValue) -> Bool {
  let control = { (text: String) in text.unicodeScalars.contains(where: Terminal.isControl) }
  switch value {
  case .object(let members):
    return members.contains { control($0.key) || holdsControlCharacter($0.value) }
  case .array(let elements): return elements.contains(where: holdsControlCharacter)
  case .string(let text): return control(text)
  case .number, .bool, .null: return false
  }
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
  var text: [UInt8] = []
  render(document, into: &text)
  do {
    let again = try JSONParser.parse(text)
    require(
      again == document,
      "parse(render(value)) differs from value for \(String(decoding: text, as: UTF8.self))")
  } catch {
    require(
      false,
      "the rendering of a parsed value is not valid JSON (\(error)): \(String(decoding: text, as: UTF8.self))"
    )
  }
}

/// The value as JSON text, in bytes: megabytes of input render in a
/// fraction of a second even under AddressSanitizer.
private func render(_ value: JSONValue, into text: inout [UInt8]) {
  switch value {
  case .object(let members):
    text.append(UInt8(ascii: "{"))
    for (offset, member) in members.enumerated() {
      if offset > 0 { text.append(UInt8(ascii: ",")) }
      quote(member.key, into: &text)
      text.append(UInt8(ascii: ":"))
      render(member.value, into: &text)
    }
    text.append(UInt8(ascii: "}"))
  case .array(let elements):
    text.append(UInt8(ascii: "["))
    for (offset, element) in elements.enumerated() {
      if offset > 0 { text.append(UInt8(ascii: ",")) }
      render(element, into: &text)
    }
    text.append(UInt8(ascii: "]"))
  case .string(let string): quote(string, into: &text)
  case .number(let number): text += number.utf8
  case .bool(let flag): text += (flag ? "true" : "false").utf8
  case .null: text += "null".utf8
  }
}

/// The string in quotes, with `"`, `\` and control characters escaped
/// and everything else as its UTF-8.
private func quote(_ string: String, into text: inout [UInt8]) {
  text.append(UInt8(ascii: "\""))
  for byte in string.utf8 {
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"):
      text += [UInt8(ascii: "\\"), byte]
    case 0x00...0x1F:
      let hex = Array("0123456789abcdef".utf8)
      text += "\\u00".utf8
      text += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
    default: text.append(byte)
    }
  }
  text.append(UInt8(ascii: "\""))
}

/// A service with a plain and two named registrations, for a profile's
/// `services` choices to name (`FuzzService` or
/// `PlugboardEngine.FuzzService`, `Live` or `Mock`).
private final class FuzzService: Sendable {
  let name: String?
  init(_ name: String?) { self.name = name }
}

/// Every declared profile chosen by each of the three sources, and a name
/// taken from the input chosen as `--profile`; each declared profile's
/// `services` applied to a fresh container. A choice either fails naming
/// what was asked or yields that profile; applying either reports problems
/// at the profile's `services` or makes unnamed requests of the chosen
/// type resolve to the chosen registration.
private func checkProfileChoices(_ manifest: Manifest, input: [UInt8]) {
  let invented = String(decoding: input.suffix(16), as: UTF8.self)
  for name in manifest.profiles.prefix(8).map(\.name) + [invented] {
    // The environment is ignored when empty, so it can only choose a name.
    let environments: [[String: String]] = name.isEmpty ? [] : [[ProfileChooser.environmentVariable: name]]
    let choices: [(String?, [String: String])] = [(name, [:])] + environments.map { (nil, $0) }
    for (option, environment) in choices {
      switch ProfileChooser.choose(for: manifest, option: option, environment: environment) {
      case .success(let active):
        require(active?.name == name, "asked for profile \(name), got \(active?.name ?? "none")")
      case .failure(let error):
        require(manifest.profile(named: name) == nil, "the declared profile \(name) was refused")
        require(error.requested == name, "a refusal of \(name) names \(error.requested)")
        require(
          error.message.utf8.count <= 4096, "a refusal of a profile takes \(error.message.utf8.count) bytes")
      }
    }
  }
  for profile in manifest.profiles.prefix(8) { checkServiceChoices(profile, path: manifest.path) }
}

private func checkServiceChoices(_ profile: ProfileDeclaration, path: String) {
  let container = Container()
  container.register(FuzzService.self) { _ in FuzzService(nil) }
  for name in ["Live", "Mock"] {
    container.register(FuzzService.self, name: name) { _ in FuzzService(name) }
  }
  let problems = ServiceSelector.apply(profile, to: container, manifest: path)
  for problem in problems {
    require(
      problem.message.hasPrefix("\(path): profiles.\(Excerpt.of(profile.name)).services"),
      "a service choice's problem is not placed at its profile: \(problem.message)")
  }
  guard problems.isEmpty else { return }
  // The last choice of a type wins, as in the container.
  var chosen: String?
  for choice in profile.services { chosen = choice.name }
  guard let chosen else { return }
  let served = try? container.resolve(FuzzService.self)
  require(
    served?.name == chosen,
    "profile \(profile.name) chose \(chosen), resolving served \(served?.name ?? "nothing")")
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
    + manifest.pluginRoots + manifest.libraryPins.map(\.path)
    + manifest.profiles.flatMap { [$0.description ?? ""] + $0.services.flatMap { [$0.type, $0.name] } }
  for string in strings {
    require(
      !string.unicodeScalars.contains(where: Terminal.isControl),
      "a control character was kept in \(string.debugDescription)")
  }
  // Library pins are what the loader compares digests with: one per
  // path, each a digest as 'plugboard pin' writes it.
  let pinned = manifest.libraryPins.map(\.path)
  require(Set(pinned).count == pinned.count, "a library is pinned twice")
  for pin in manifest.libraryPins {
    require(
      !pin.path.isEmpty && pin.sha256.utf8.count == 64
        && pin.sha256.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) },
      "libraryPins[\(pin.path.debugDescription)] is \(pin.sha256.debugDescription)")
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
