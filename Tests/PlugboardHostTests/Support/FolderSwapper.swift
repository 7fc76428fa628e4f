import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Two folders exchanging names over and over, on a thread of its own, as
/// a deployment that renames a staged release into place does, while a
/// test starts plugboard: whatever plugboard vets at a folder's path, the
/// other folder may be there a moment later. Between the three renames of
/// each exchange, one of the names is briefly missing.
final class FolderSwapper: Sendable {
  private let names: (String, String)
  private let stopped = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)

  /// Starts exchanging the folders at `first` and `second`.
  init(_ first: String, _ second: String) {
    names = (first, second)
    Thread.detachNewThread { [self] in swap() }
  }

  private func swap() {
    let aside = names.0 + ".aside"
    while !stopped.load(ordering: .relaxed) {
      _ = rename(names.0, aside)
      _ = rename(names.1, names.0)
      _ = rename(aside, names.1)
    }
    finished.signal()
  }

  /// Stops exchanging and waits for the thread to end; the folders are then
  /// each at one of the two names.
  func stop() {
    stopped.store(true, ordering: .relaxed)
    finished.wait()
  }
}
