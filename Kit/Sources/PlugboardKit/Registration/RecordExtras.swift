/// What a registration seldom has: metadata (declared dependencies,
/// profiles, hooks, a custom scope), a `.weak` or custom-scoped instance,
/// `.container` instances a reset dropped.
///
/// Kept out of ``RegistrationRecord`` so that a plain registration is one
/// small block (issue 27: every record carried room for all of this, 360
/// of a registration's 452 bytes). The record makes it on the first write,
/// under its striped lock, which guards every field here; reading never
/// makes one (`check` reads the metadata of every registration).
final class RecordExtras {
  var metadata = RegistrationMetadata()
  /// The `.weak` instance, held weakly.
  weak var weakObject: AnyObject?
  /// `.container` instances dropped by a reset, freed with the record.
  var dropped: [UnsafeMutableRawPointer] = []
  /// The custom-scoped instance, and how many times its scope was reset.
  var scopedInstance: (value: Any?, generation: UInt) = (nil, 0)
}
