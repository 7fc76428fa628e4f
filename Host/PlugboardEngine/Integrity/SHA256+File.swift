import PlugboardDigest

#if canImport(Glibc)
  import Glibc
#endif

extension SHA256 {
  /// The digest of everything `descriptor` reads from its current offset to
  /// its end, read in pieces (bounded memory); `name` is the file's path,
  /// for the error.
  package static func hash(fileDescriptor descriptor: Int32, name: String) -> Result<Digest, SystemCallError>
  {
    var hasher = SHA256()
    do throws(FileChunksError<Never>) {
      try FileChunks.read(descriptor, name: name) { hasher.update($0) }
    } catch {
      switch error {
      case .read(let failure): return .failure(failure)
      }
    }
    return .success(hasher.finalize())
  }

  /// The digest of the regular file at `path`, opened without following a
  /// final symbolic link (the path is expected to be canonical already).
  package static func hash(file path: String) -> Result<Digest, SystemCallError> {
    RegularFile.open(path).flatMap { descriptor in
      defer { close(descriptor) }
      return hash(fileDescriptor: descriptor, name: path)
    }
  }
}
