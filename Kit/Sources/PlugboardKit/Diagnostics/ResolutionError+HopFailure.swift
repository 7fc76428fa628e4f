#if canImport(Glibc)
  import Glibc
#endif

extension ResolutionError {
  /// Why a deep chain could not continue on a helper thread when the stack
  /// of the thread it ran on was nearly full.
  public enum HopFailure: Sendable, Equatable, CustomStringConvertible {
    /// The system refused to create a thread: `pthread_create` failed with
    /// `errno`, usually `EAGAIN` (too many threads for `ulimit -u` or the
    /// cgroup's `pids.max`, or no address space for the stack under
    /// `ulimit -v`).
    case threadRefused(errno: Int32)
    /// `limit` helper threads were already running deep chains, the most
    /// the process runs at a time, and an older chain than this one held
    /// some of them. The oldest chain is never refused for want of a
    /// helper, so one deep resolution always completes.
    case helpersBusy(limit: Int)

    /// The reason as a clause: "the system refused to create a thread (…)".
    public var description: String {
      switch self {
      case .threadRefused(let errno):
        let reason = strerror(errno).map { String(cString: $0) } ?? "error"
        return "the system refused to create a thread (\(reason), errno \(errno))"
      case .helpersBusy(let limit):
        return "all \(limit) helper threads for deep chains are in use by other resolutions"
      }
    }
  }
}
