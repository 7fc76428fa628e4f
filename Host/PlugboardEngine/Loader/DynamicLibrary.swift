#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A library opened with `dlopen`. There is deliberately no `close`: Swift
/// images register metadata and conformances with the runtime and cannot be
/// unloaded safely, so they stay for the life of the process.
struct DynamicLibrary {
  let handle: UnsafeMutableRawPointer

  /// Opens `path` (absolute and canonical) with every symbol bound now, so
  /// an unresolved symbol fails here and not in the middle of a call; local,
  /// so plugins do not interpose on one another; and never unloaded.
  static func open(_ path: String) -> Result<DynamicLibrary, DynamicLoaderError> {
    _ = dlerror()
    guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
      return .failure(DynamicLoaderError(text: lastError() ?? "dlopen failed without a message"))
    }
    return .success(DynamicLibrary(handle: handle))
  }

  /// The address of the exported symbol `name`, or the loader's error.
  func symbol(_ name: String) -> Result<UnsafeMutableRawPointer, DynamicLoaderError> {
    _ = dlerror()
    guard let address = dlsym(handle, name) else {
      return .failure(DynamicLoaderError(text: Self.lastError() ?? "\(name) not found"))
    }
    return .success(address)
  }

  private static func lastError() -> String? {
    guard let text = dlerror() else { return nil }
    return String(cString: text)
  }
}

/// `dlerror()`'s text.
struct DynamicLoaderError: Error, Equatable {
  let text: String
}
