/// One address of a crash record (a `W` progress line, written by the
/// child's crash handler; see `plugboard_crash_site.h`): the faulting
/// address or a return address of the crashing thread, with the loaded
/// object that owns it and the plugin whose library that object is.
package struct CrashSite: Equatable, Sendable {
  enum Kind: Character, Sendable {
    /// The faulting address (`si_addr`).
    case fault = "a"
    /// The faulting address, next to the stack pointer: a stack overflow.
    case stackOverflow = "o"
    /// A frame: the interrupted program counter, then return addresses,
    /// innermost first.
    case frame = "f"
  }

  let kind: Kind
  /// The offset from the object's load address; the address itself when
  /// no object owns it.
  let offset: UInt64
  /// The path of the object that owns the address, as the child's maps
  /// file names it.
  let object: String?
  /// The plugin whose library ``object`` is.
  let plugin: String?

  /// `libFoo.so+0x1234`; nil when no object owns the address.
  var location: String? {
    guard let object else { return nil }
    let name = object.split(separator: "/").last.map(String.init) ?? object
    return "\(name)+0x\(String(offset, radix: 16))"
  }

  /// The site the crash is blamed on: the innermost frame in a plugin's
  /// library (plugin code that called into a shared library, the Swift
  /// runtime or libc is still the caller's fault), else the faulting
  /// address when a plugin's library owns it; nil when neither is a
  /// plugin's (the stage is then blamed, as when there is no record).
  static func blamed(in sites: [CrashSite]) -> CrashSite? {
    sites.first { $0.kind == .frame && $0.plugin != nil }
      ?? sites.first { $0.kind != .frame && $0.plugin != nil }
  }

  /// Whether the record says the crashing thread ran out of stack.
  static func isStackOverflow(_ sites: [CrashSite]) -> Bool {
    sites.contains { $0.kind == .stackOverflow }
  }
}
