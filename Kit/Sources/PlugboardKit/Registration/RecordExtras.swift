/// What a registration seldom has: metadata (declared dependencies,
/// profiles, hooks, a custom scope) and instances kept outside the
/// lock-free `.container` slot (``KeptInstances``).
///
/// Kept out of ``RegistrationRecord`` so that a plain registration is one
/// small block: room for all of this in every record would be most of a
/// registration's memory. The record makes it on the first write,
/// under its striped lock, which guards every field here; reading never
/// makes one (`check` reads the metadata of every registration).
@usableFromInline
final class RecordExtras {
  var metadata = RegistrationMetadata()
  /// Made when the first instance is kept: most registrations that
  /// declare something (`dependsOn`, `autoregister`) never keep one.
  var kept: KeptInstances?
}
