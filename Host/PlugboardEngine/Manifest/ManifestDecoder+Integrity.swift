/// Decoding of the keys that say how far plugins are trusted: each
/// plugin's `sha256` pin, and the top-level `requirePins`, `libraryPins`,
/// `pluginRoots` and the time limits `stageTimeout`, `hookTimeout` and `exitTimeout`.
extension ManifestDecoder {
  private static let digestExpectation =
    "expected 64 hexadecimal digits (a SHA-256 digest, as 'plugboard pin' writes it)"

  mutating func integritySettings(_ members: ManifestMembers) {
    let root = ManifestPath.root
    if let value = members["requirePins"] {
      if case .bool(let flag) = value {
        requirePins = flag
      } else {
        report(root.key("requirePins"), "expected a boolean, found \(value.kindDescription)")
      }
    }
    if let node = members.node("libraryPins") {
      libraryPins = libraryPins(node, at: root.key("libraryPins"))
    }
    if let value = members["pluginRoots"] {
      pluginRoots = roots(value, at: root.key("pluginRoots"))
    }
    if let value = members["stageTimeout"] {
      stageTimeout = timeout(value, at: root.key("stageTimeout"))
    }
    if let value = members["hookTimeout"] {
      hookTimeout = timeout(value, at: root.key("hookTimeout"))
    }
    if let value = members["exitTimeout"] {
      exitTimeout = timeout(value, at: root.key("exitTimeout"))
    }
  }

  /// A plugin's `sha256`: 64 hexadecimal digits, either case, kept in
  /// lower case.
  mutating func digest(_ value: JSONValue, at path: ManifestPath) -> String? {
    guard case .string(let text) = value else {
      report(path, "expected a string, found \(value.kindDescription)")
      return nil
    }
    if let (position, character) = text.enumerated().first(where: {
      !($0.element.isASCII && $0.element.isHexDigit)
    }) {
      report(path, "\(Self.digestExpectation), found \"\(character)\" at character \(position + 1)")
      return nil
    }
    guard text.count == 64 else {
      report(path, "\(Self.digestExpectation), found \(text.count) digits")
      return nil
    }
    return text.lowercased()
  }

  /// `libraryPins`: an object from library paths (non-empty) to digests,
  /// each path once.
  private mutating func libraryPins(_ node: Int, at path: ManifestPath) -> [LibraryPin] {
    var pins: [LibraryPin] = []
    for member in orderedMembers(node, at: path) {
      let library = tape.text(member.key)
      guard !library.isEmpty else {
        report(path, "expected a library's path as each key (as 'plugboard pin' writes it), found \"\"")
        continue
      }
      if let pin = digest(tape.value(at: member.value), at: path.key(library)) {
        pins.append(LibraryPin(path: library, sha256: pin))
      }
    }
    return pins
  }

  mutating func roots(_ value: JSONValue, at path: ManifestPath) -> [String] {
    guard case .array(let elements) = value else {
      report(path, "expected an array of folder paths, found \(value.kindDescription)")
      return []
    }
    var roots: [String] = []
    for (index, element) in elements.enumerated() {
      guard case .string(let folder) = element else {
        report(path.index(index), "expected a string, found \(element.kindDescription)")
        continue
      }
      guard !folder.isEmpty else {
        report(path.index(index), "expected a non-empty string")
        continue
      }
      roots.append(folder)
    }
    return roots
  }

  private mutating func timeout(_ value: JSONValue, at path: ManifestPath) -> Duration? {
    guard case .number(let text) = value, Double(text) != nil else {
      report(path, "expected a number of seconds, found \(value.kindDescription)")
      return nil
    }
    guard let duration = StageTimeout.parse(text) else {
      report(
        path,
        "expected a number of seconds greater than 0 and at most \(Int(StageTimeout.maximumSeconds)), found \(text)"
      )
      return nil
    }
    return duration
  }
}
