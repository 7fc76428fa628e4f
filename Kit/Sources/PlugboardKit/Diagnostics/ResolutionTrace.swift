import PlugboardABI

/// The resolution in progress on the calling thread, for tools that must
/// say what was being made when something went wrong outside Swift's error
/// handling: a supervising host's crash handler, a debugger.
///
/// ```swift
/// // In a crash handler, before the process ends:
/// for link in ResolutionTrace.activeChain() { report(link.description) }
/// ```
///
/// It reads the thread's chain without locking or retaining anything, so
/// it can be called from a signal handler that interrupted a factory. It
/// allocates the returned array, so it is not async-signal-safe in the
/// strict sense: call it only when the process is about to end anyway.
public enum ResolutionTrace {
  /// The registrations being made on the calling thread, from the
  /// top-level request down to the innermost factory running; empty when
  /// nothing is being resolved.
  public static func activeChain() -> [ChainLink] {
    guard let pointer = plugboard_current_context() else { return [] }
    return Unmanaged<ResolutionContext>.fromOpaque(pointer)._withUnsafeGuaranteedRef(\.links)
  }
}
