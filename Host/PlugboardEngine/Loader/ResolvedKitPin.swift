#if canImport(Glibc)
  import Glibc
#endif

/// The PlugboardKit version a plugin's package has resolved by version
/// (`Package.resolved`, written by SwiftPM for a `.package(url:…)`
/// dependency), for advice that must change it: a clean build of a package
/// that resolved PlugboardKit 1.1.0 builds against 1.1.0 again, whatever
/// the host has.
enum ResolvedKitPin {
  /// SwiftPM's identity of the SDK's package: the URL's last component,
  /// lowercased.
  static let identity = "plugboardkit"
  /// A `Package.resolved` longer than this is not read: advice is not worth
  /// reading an unbounded file for.
  static let maximumSize = 1 << 20

  /// The version `package`'s `Package.resolved` pins PlugboardKit at, or
  /// nil when there is none, it is unreadable, or the SDK is a path or
  /// branch dependency (no version).
  static func version(inPackage package: String) -> String? {
    let descriptor = open(package + "/Package.resolved", O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
      status.st_size <= maximumSize
    else { return nil }
    let bytes = FileBytes.pread(descriptor, at: 0, count: Int(status.st_size))
    guard let document = try? JSONParser.parse(bytes) else { return nil }
    return version(in: document)
  }

  /// The version of the pin named ``identity`` in a parsed
  /// `Package.resolved` (format versions 1 to 3: `pins`, or `object.pins`).
  static func version(in document: JSONValue) -> String? {
    var pins = member("pins", of: document)
    if pins == nil, let object = member("object", of: document) { pins = member("pins", of: object) }
    guard case .array(let list)? = pins else { return nil }
    for pin in list {
      let name = member("identity", of: pin) ?? member("package", of: pin)
      guard case .string(let identity)? = name, identity.lowercased() == Self.identity,
        let state = member("state", of: pin), case .string(let version)? = member("version", of: state)
      else { continue }
      return version
    }
    return nil
  }

  private static func member(_ key: String, of value: JSONValue) -> JSONValue? {
    guard case .object(let members) = value else { return nil }
    return members.first { $0.key == key }?.value
  }
}
