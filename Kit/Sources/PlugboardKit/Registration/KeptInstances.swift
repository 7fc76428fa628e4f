/// The instances a registration keeps outside its lock-free `.container`
/// slot, guarded by the record's striped lock.
final class KeptInstances {
  /// The `.weak` instance, held weakly.
  weak var weakObject: AnyObject?
  /// `.container` instances dropped by a reset, freed with the record.
  var dropped: [UnsafeMutableRawPointer] = []
  /// The custom-scoped instance, and how many times its scope was reset.
  var scopedInstance: (value: Any?, generation: UInt) = (nil, 0)
}
