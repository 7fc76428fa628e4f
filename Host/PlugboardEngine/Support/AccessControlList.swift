import PlugboardSupervision

/// A file's POSIX access ACL: who besides its owner, its group and others
/// it grants access to. With named users or groups in it, the mode's group
/// bits are the ACL's mask, so "writable by its group" would name the wrong
/// people: ``writers`` names the right ones.
///
/// Read from the kernel's form of `system.posix_acl_access`: a version (2),
/// then entries of a tag, a permission and an id, 8 bytes each.
struct AccessControlList: Equatable {
  /// The bytes as stored, written back unchanged by ``write(to:)``.
  let bytes: [UInt8]

  /// An ACL is a handful of entries; a longer one is read only this far.
  private static let maximumSize = 4096

  private enum Tag: UInt16 {
    case owner = 0x01, user = 0x02, group = 0x04, namedGroup = 0x08, mask = 0x10, others = 0x20
  }

  /// The ACL of the file at `path` (a final link not followed), or nil when
  /// it has none beyond its mode, or it cannot be read.
  static func of(_ path: String) -> AccessControlList? {
    read { plugboard_acl_read(path, $0, $1) }
  }

  /// The ACL of the file open as `descriptor`, or nil.
  static func of(descriptor: Int32) -> AccessControlList? {
    read { plugboard_acl_read_fd(descriptor, $0, $1) }
  }

  private static func read(_ call: (UnsafeMutableRawPointer?, UInt) -> Int) -> AccessControlList? {
    var buffer = [UInt8](repeating: 0, count: maximumSize)
    let length = buffer.withUnsafeMutableBytes { call($0.baseAddress, UInt($0.count)) }
    guard length > 4, length <= maximumSize else { return nil }
    return AccessControlList(bytes: Array(buffer[..<length]))
  }

  /// Gives the file open as `descriptor` this ACL; false when it could not.
  func write(to descriptor: Int32) -> Bool {
    bytes.withUnsafeBytes { plugboard_acl_write_fd(descriptor, $0.baseAddress, UInt($0.count)) } == 0
  }

  /// The entries, as (tag, permission, id).
  private var entries: [(tag: Tag, permission: UInt16, id: UInt32)] {
    stride(from: 4, to: bytes.count - 7, by: 8).compactMap { offset in
      func word(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
      let id = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + 4 + $1]) << (8 * $1) }
      return Tag(rawValue: word(offset)).map { ($0, word(offset + 2), id) }
    }
  }

  /// Whether it names users or groups besides the owner, the group and
  /// others: only then does it grant more than the mode says.
  var isExtended: Bool { entries.contains { $0.tag == .user || $0.tag == .namedGroup } }

  /// Who besides the owner may write through it ("uid 1001", "gid 50",
  /// "its group", "others"), the mask applied as the kernel applies it.
  var writers: [String] { granted(2) }

  /// Who besides the owner may read through it, in the same words as
  /// ``writers``.
  var readers: [String] { granted(4) }

  /// Who besides the owner the entries grant `permission` (a bit of
  /// `rwx`): the mask limits named users, named groups and the owning
  /// group, not others.
  private func granted(_ permission: UInt16) -> [String] {
    let mask = entries.first { $0.tag == .mask }?.permission ?? 7
    return entries.compactMap { entry in
      switch entry.tag {
      case .user where entry.permission & mask & permission != 0: "uid \(entry.id)"
      case .namedGroup where entry.permission & mask & permission != 0: "gid \(entry.id)"
      case .group where entry.permission & mask & permission != 0: "its group"
      case .others where entry.permission & permission != 0: "others"
      default: nil
      }
    }
  }
}
