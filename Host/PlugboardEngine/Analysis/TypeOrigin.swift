import Foundation

/// Which loaded library defines a type, found by looking up an address
/// inside the type's defining image in `/proc/self/maps` (what `dladdr`
/// does, without needing glibc's `_GNU_SOURCE` declarations): the address
/// is, for a protocol's existential (`any P`), on its protocol
/// descriptor, which lives in the image that defines `P`; for other types,
/// on the metadata itself, or on its nominal type descriptor.
///
/// Used to name the two libraries involved when one module is loaded twice.
enum TypeOrigin {
  /// The canonical path of the library defining `type`, if it can be told.
  static func library(of type: any Any.Type) -> String? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    for candidate in addresses(of: metadata) {
      if let path = image(containing: candidate) { return path }
    }
    return nil
  }

  /// Addresses inside the defining image, most precise first.
  private static func addresses(of metadata: UnsafeRawPointer) -> [UnsafeRawPointer] {
    let kind = metadata.load(as: UInt.self)
    switch kind {
    case existentialKind:
      // TargetExistentialTypeMetadata: kind, flags (UInt32), number of
      // protocols (UInt32), a superclass constraint when flagged, then the
      // protocol descriptor references.
      let flags = metadata.load(fromByteOffset: 8, as: UInt32.self)
      let count = metadata.load(fromByteOffset: 12, as: UInt32.self)
      guard count > 0 else { return [] }
      let offset = 16 + (flags & hasSuperclassFlag != 0 ? MemoryLayout<UInt>.size : 0)
      let reference = metadata.load(fromByteOffset: offset, as: UInt.self) & ~UInt(1)
      return UnsafeRawPointer(bitPattern: reference).map { [$0] } ?? []
    case structKind, enumKind, optionalKind:
      // Value metadata: kind, then the nominal type descriptor, which is in
      // the defining image even when the metadata was made at run time.
      let descriptor = metadata.load(fromByteOffset: 8, as: UInt.self)
      return UnsafeRawPointer(bitPattern: descriptor).map { [$0] } ?? []
    default:
      // Class metadata of a non-generic class is static in its image.
      return [metadata]
    }
  }

  /// The file mapped at `address`, from the process's memory map. For
  /// messages only: read and parsed whole on each call, it is no lookup
  /// for a loading path (which asks `dladdr`: see `SharedModuleStamps`).
  static func image(containing address: UnsafeRawPointer) -> String? {
    let target = UInt(bitPattern: address)
    // Read to the end: procfs files report no size, and a one-shot read of
    // them stops at a page.
    guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps"),
      let data = try? handle.readToEnd()
    else { return nil }
    try? handle.close()
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      // start-end perms offset dev inode path, the path after a run of spaces.
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 6, fields[5].hasPrefix("/") else { continue }
      let range = fields[0].split(separator: "-")
      guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
        start <= target, target < end
      else { continue }
      let path = fields[5...].joined(separator: " ")
      return FilePath.canonical(path) ?? path
    }
    return nil
  }

  // From the Swift ABI's MetadataKind and ExistentialTypeFlags.
  private static let structKind: UInt = 0x200
  private static let enumKind: UInt = 0x201
  private static let optionalKind: UInt = 0x202
  private static let existentialKind: UInt = 0x303
  private static let hasSuperclassFlag: UInt32 = 0x4000_0000
}
