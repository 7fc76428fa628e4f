import Glibc

/// An allowed signers file as OpenSSH defines it (ssh-keygen(1), "ALLOWED
/// SIGNERS"), the file git's `gpg.ssh.allowedSignersFile` names: one signer
/// a line,
///
///     principals [options] keytype base64-key [comment]
///
/// principals a comma-separated pattern list (quoted when it holds
/// spaces), options comma-separated: `namespaces="…"` (a pattern list the
/// signature's namespace must match), `valid-after="…"` and
/// `valid-before="…"` (`YYYYMMDD[HHMM[SS]]`, UTC with a trailing `Z`,
/// local time without). `#` starts a comment line. For Plugboard the
/// principal is the plugin's name, so a line limits a key to the plugins
/// its patterns name:
///
///     team-a-*  namespaces="plugboard-plugin"  ssh-ed25519 AAAAC3Nz…  release key, team A
///
/// `cert-authority` is refused with its line (Plugboard checks plain keys),
/// and lines of other key types (ssh-rsa, ecdsa) are kept but never match.
package struct AllowedSigners: Sendable {
  /// One line.
  package struct Entry: Sendable, Equatable {
    package let line: Int
    package let principals: PatternList
    package let namespaces: PatternList?
    /// Seconds since the epoch; the key is valid from then on.
    package let validAfter: Int?
    /// Seconds since the epoch; the key is valid until then.
    package let validBefore: Int?
    /// nil for a key type Plugboard does not verify.
    package let key: SSHPublicKey?
    package let comment: String
  }

  /// The largest file read, and the most lines.
  package static let maximumSize = 1 << 20
  package static let maximumLineLength = 16384

  /// The name shown in messages: the file's path.
  package let file: String
  package let entries: [Entry]

  /// Parses the file's bytes; `file` names it in messages. Throws
  /// `SignatureError.badLine` with the line, `.unsupportedOption` for
  /// `cert-authority`, `.oversized` past ``maximumSize``.
  package init(bytes: [UInt8], file: String) throws(SignatureError) {
    guard bytes.count <= Self.maximumSize else {
      throw .oversized(what: "the allowed signers file \(file)", limit: Self.maximumSize)
    }
    self.file = file
    var entries: [Entry] = []
    for (index, raw) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .enumerated()
    {
      let number = index + 1
      var line = Array(raw)
      if line.last == UInt8(ascii: "\r") { line.removeLast() }
      guard line.count <= Self.maximumLineLength else {
        throw .badLine(
          file: file, line: number, reason: "the line is longer than \(Self.maximumLineLength) bytes")
      }
      var cursor = LineCursor(line)
      cursor.skipSpace()
      if cursor.isAtEnd || cursor.peek == UInt8(ascii: "#") { continue }
      entries.append(try Self.entry(&cursor, line: number, file: file))
    }
    self.entries = entries
  }

  private static func entry(_ cursor: inout LineCursor, line: Int, file: String) throws(SignatureError)
    -> Entry
  {
    func bad(_ reason: String) -> SignatureError { .badLine(file: file, line: line, reason: reason) }
    guard let principalBytes = cursor.token(),
      let principals = String(validating: principalBytes, as: UTF8.self),
      !principals.isEmpty
    else { throw bad("no principals") }
    cursor.skipSpace()
    guard var word = cursor.token() else { throw bad("no key after the principals") }
    var namespaces: PatternList?
    var validAfter: Int?
    var validBefore: Int?
    if !SSHPublicKey.isKnownTypeName(String(decoding: word, as: UTF8.self)) {
      for option in Self.options(word) {
        let (name, value) = option
        switch name.lowercased() {
        case "cert-authority":
          throw .unsupportedOption(file: file, line: line, option: "cert-authority")
        case "namespaces":
          guard let value else { throw bad("namespaces needs a value: namespaces=\"plugboard-plugin\"") }
          namespaces = PatternList(value)
        case "valid-after":
          guard let value, let time = Self.timestamp(value) else {
            throw bad("valid-after needs a time YYYYMMDD[HHMM[SS]][Z]")
          }
          validAfter = time
        case "valid-before":
          guard let value, let time = Self.timestamp(value) else {
            throw bad("valid-before needs a time YYYYMMDD[HHMM[SS]][Z]")
          }
          validBefore = time
        default:
          throw bad("unknown option or key type \"\(Printable.text(Array(name.utf8)))\"")
        }
      }
      cursor.skipSpace()
      guard let next = cursor.token() else { throw bad("no key after the options") }
      word = next
    }
    let key = try SSHPublicKey.read(type: word, from: &cursor, bad: bad)
    cursor.skipSpace()
    let comment = String(decoding: cursor.rest, as: UTF8.self)
    return Entry(
      line: line, principals: PatternList(principals), namespaces: namespaces, validAfter: validAfter,
      validBefore: validBefore, key: key, comment: comment)
  }

  /// `name[="value"]` pairs, split at commas outside quotes.
  private static func options(_ text: [UInt8]) -> [(String, String?)] {
    var result: [(String, String?)] = []
    var current: [UInt8] = []
    var quoted = false
    func flush() {
      let part = current
      current = []
      if let equals = part.firstIndex(of: UInt8(ascii: "=")) {
        var value = Array(part[(equals + 1)...])
        if value.count >= 2 && value.first == UInt8(ascii: "\"") && value.last == UInt8(ascii: "\"") {
          value = Array(value.dropFirst().dropLast())
        }
        result.append(
          (String(decoding: part[..<equals], as: UTF8.self), String(decoding: value, as: UTF8.self)))
      } else {
        result.append((String(decoding: part, as: UTF8.self), nil))
      }
    }
    for byte in text {
      if byte == UInt8(ascii: "\"") { quoted.toggle() }
      if byte == UInt8(ascii: ",") && !quoted {
        flush()
      } else {
        current.append(byte)
      }
    }
    flush()
    return result
  }

  /// `YYYYMMDD`, `YYYYMMDDHHMM` or `YYYYMMDDHHMMSS`, then `Z` for UTC;
  /// without it local time, as OpenSSH reads it.
  static func timestamp(_ text: String) -> Int? {
    var digits = Array(text.utf8)
    let utc = digits.last == UInt8(ascii: "Z")
    if utc { digits.removeLast() }
    guard [8, 12, 14].contains(digits.count), digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
    func number(_ range: Range<Int>) -> Int32 {
      digits[range].reduce(Int32(0)) { $0 * 10 + Int32($1 - 48) }
    }
    var parts = tm()
    parts.tm_year = number(0..<4) - 1900
    parts.tm_mon = number(4..<6) - 1
    parts.tm_mday = number(6..<8)
    if digits.count >= 12 {
      parts.tm_hour = number(8..<10)
      parts.tm_min = number(10..<12)
    }
    if digits.count == 14 { parts.tm_sec = number(12..<14) }
    guard (0...11).contains(parts.tm_mon), (1...31).contains(parts.tm_mday), parts.tm_hour < 24,
      parts.tm_min < 60, parts.tm_sec < 61
    else { return nil }
    parts.tm_isdst = -1
    let seconds = utc ? timegm(&parts) : mktime(&parts)
    return seconds == -1 ? nil : Int(seconds)
  }

  /// The entries that let `key` sign in `namespace` at `time` (seconds
  /// since the epoch), whatever their principals.
  package func entries(for key: SSHPublicKey, namespace: String, at time: Int) -> [Entry] {
    entries.filter { entry in
      entry.key == key && (entry.namespaces?.matches(namespace) ?? true)
        && (entry.validAfter.map { time >= $0 } ?? true) && (entry.validBefore.map { time <= $0 } ?? true)
    }
  }

  /// The first entry that lets `key` sign `principal` in `namespace` at
  /// `time`, or nil.
  package func entry(
    permitting principal: String, key: SSHPublicKey, namespace: String, at time: Int
  ) -> Entry? {
    entries(for: key, namespace: namespace, at: time).first { $0.principals.matches(principal) }
  }
}

/// Walks one line: whitespace-separated tokens, a double-quoted token kept
/// whole (quotes removed), as OpenSSH reads principals and options.
struct LineCursor {
  private let bytes: [UInt8]
  private var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var isAtEnd: Bool { offset >= bytes.count }
  var peek: UInt8? { isAtEnd ? nil : bytes[offset] }
  var rest: ArraySlice<UInt8> { bytes[min(offset, bytes.count)...] }

  private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

  mutating func skipSpace() {
    while let byte = peek, Self.isSpace(byte) { offset += 1 }
  }

  /// The next token; a leading `"` runs to the closing quote. Inside an
  /// unquoted token quotes still group (an option's value may hold
  /// spaces). nil at the end or for an unclosed quote.
  mutating func token() -> [UInt8]? {
    guard !isAtEnd else { return nil }
    if bytes[offset] == UInt8(ascii: "\"") {
      guard let close = bytes[(offset + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
      defer { offset = close + 1 }
      return Array(bytes[(offset + 1)..<close])
    }
    var quoted = false
    let start = offset
    while let byte = peek, quoted || !Self.isSpace(byte) {
      if byte == UInt8(ascii: "\"") { quoted.toggle() }
      offset += 1
    }
    guard !quoted else { return nil }
    return Array(bytes[start..<offset])
  }
}
