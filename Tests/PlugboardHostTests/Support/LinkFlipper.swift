import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Another user re-pointing a symbolic link over and over, as `ln -s T
/// new && mv -T new link` does, between two targets, on a thread of its
/// own, while a test starts plugboard: whatever plugboard vets, the link
/// may lead elsewhere a moment later. The link is replaced atomically, so
/// it always exists and always leads to one of the two.
final class LinkFlipper: Sendable {
  private let link: String
  private let targets: (String, String)
  private let owner: uid_t?
  private let stopped = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)

  /// Starts flipping `link` between `first` and `second`; each new link is
  /// given to `owner` (`lchown`) when not nil, as its maker would own it.
  init(link: String, between first: String, and second: String, owner: uid_t? = nil) {
    self.link = link
    self.targets = (first, second)
    self.owner = owner
    Thread.detachNewThread { [self] in flip() }
  }

  private func flip() {
    let fresh = link + ".new"
    var next = false
    while !stopped.load(ordering: .relaxed) {
      let target = next ? targets.1 : targets.0
      next.toggle()
      unlink(fresh)
      guard symlink(target, fresh) == 0 else { continue }
      if let owner { _ = lchown(fresh, owner, owner) }
      _ = rename(fresh, link)
    }
    finished.signal()
  }

  /// Stops flipping and waits for the thread to end.
  func stop() {
    stopped.store(true, ordering: .relaxed)
    finished.wait()
  }
}
