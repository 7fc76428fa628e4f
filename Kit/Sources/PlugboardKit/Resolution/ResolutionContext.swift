#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state of the resolution running on one thread: the chain from the
/// top-level request down to the registration being made, and the instances
/// shared by `.graph` registrations within it.
///
/// It lives in thread-local storage rather than in the resolver passed to
/// factories, so that a factory which calls a captured container directly
/// still extends the same chain (and its cycles are still caught), and so
/// that a top-level resolve allocates nothing.
final class ResolutionContext {
  struct Frame {
    let record: RegistrationRecord
    /// Whether the record took runtime arguments here; a registration with
    /// arguments may legitimately recurse (a tree built level by level), so
    /// only argument-free re-entry counts as a cycle.
    let hasArguments: Bool
  }

  private(set) var frames: [Frame] = []
  var graphInstances: [ObjectIdentifier: Any] = [:]

  init() { frames.reserveCapacity(16) }

  var depth: Int { frames.count }

  /// Frames beyond the first `scanLimit` are also counted here, so that
  /// checking for a cycle stays cheap in very deep chains.
  private var deepFrames: [ObjectIdentifier: Int] = [:]
  private static let scanLimit = 32

  /// Whether `record` is already being made (without arguments) further up.
  func isActive(_ record: RegistrationRecord) -> Bool {
    let scanned = frames.prefix(Self.scanLimit)
    if scanned.contains(where: { $0.record === record && !$0.hasArguments }) { return true }
    return frames.count > Self.scanLimit && deepFrames[ObjectIdentifier(record)] != nil
  }

  func push(_ record: RegistrationRecord, hasArguments: Bool) {
    if frames.count >= Self.scanLimit && !hasArguments {
      deepFrames[ObjectIdentifier(record), default: 0] += 1
    }
    frames.append(Frame(record: record, hasArguments: hasArguments))
  }

  func pop() {
    let frame = frames.removeLast()
    if frames.count >= Self.scanLimit && !frame.hasArguments {
      let id = ObjectIdentifier(frame.record)
      if let count = deepFrames[id], count > 1 { deepFrames[id] = count - 1 } else { deepFrames[id] = nil }
    }
    if frames.isEmpty && !graphInstances.isEmpty { graphInstances.removeAll(keepingCapacity: true) }
  }

  /// The chain as diagnostics show it.
  var links: [ChainLink] {
    frames.map { ChainLink(key: $0.record.key, site: $0.record.site, scope: $0.record.scope) }
  }

  // MARK: Thread-local storage

  private static let storageKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in
      guard let pointer else { return }
      Unmanaged<ResolutionContext>.fromOpaque(pointer).release()
    }
    return key
  }()

  /// The context of the calling thread, created on first use.
  @inline(__always)
  static var current: ResolutionContext {
    if let pointer = pthread_getspecific(storageKey) {
      return Unmanaged<ResolutionContext>.fromOpaque(pointer).takeUnretainedValue()
    }
    let context = ResolutionContext()
    install(context)
    return context
  }

  /// Makes `context` the calling thread's context (used when a deep chain
  /// continues on a helper thread).
  static func install(_ context: ResolutionContext?) {
    if let old = pthread_getspecific(storageKey) {
      Unmanaged<ResolutionContext>.fromOpaque(old).release()
    }
    pthread_setspecific(storageKey, context.map { Unmanaged.passRetained($0).toOpaque() })
  }
}
