#if canImport(Glibc)
  import Glibc
#endif

/// A NULL-terminated array of C strings, as `posix_spawn` takes for `argv`
/// and `envp`; owns the copies and frees them when it goes.
final class CStringArray {
  let pointers: [UnsafeMutablePointer<CChar>?]

  init(_ strings: [String]) {
    pointers = strings.map { strdup($0) } + [nil]
  }

  deinit {
    for pointer in pointers { free(pointer) }
  }
}
