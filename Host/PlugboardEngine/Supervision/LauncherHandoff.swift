import PlugboardLaunch
import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

/// What `plugboard`, the launcher, handed this process when it forked
/// before starting the host (see `plugboard_launch.h`): the role this
/// process plays in a supervised command, the other process, and the
/// stage record and progress pipe they share.
///
/// The launcher forks first because a fork of the host, which has mapped
/// Swift, Foundation and the SDK, left the child to fault all of that in
/// again. Both processes start the host; the parent follows the child as
/// ``Supervisor`` always has, and the child runs the command.
///
/// ```swift
/// // First thing in main, before any descriptor is opened:
/// let launch = LauncherHandoff.take()
/// StandardStreams.closeInheritedDescriptors(keeping: launch?.descriptorCount ?? 0)
/// ```
package struct LauncherHandoff: Sendable {
  package enum Role: Sendable, Equatable {
    /// The supervising parent of ``peer``.
    case parent
    /// The supervised child of ``peer``.
    case child
  }

  package let role: Role
  /// The child of a parent, the parent of a child.
  package let peer: pid_t
  /// The launcher's stage record file (a memfd).
  let record: Int32
  /// The progress pipe: the read end in the parent, the write end in the child.
  let progress: Int32

  /// The descriptors the launcher placed right after socket activation's.
  package var descriptorCount: Int32 { 2 }

  /// Takes the launch out of the environment, so plugin code never sees
  /// it; `nil` when the host was started directly. A variable that does
  /// not describe this process (set by hand, or inherited from another
  /// plugboard) is reported and ignored: the host then supervises by
  /// itself. Call it first thing in `main`, while the process has one
  /// thread.
  package static func take() -> LauncherHandoff? {
    var present: Int32 = 0
    let launch = plugboard_launch_take(&present)
    switch launch.role {
    case PLUGBOARD_LAUNCHED_PARENT:
      return LauncherHandoff(
        role: .parent, peer: launch.peer, record: launch.record, progress: launch.progress)
    case PLUGBOARD_LAUNCHED_CHILD:
      return LauncherHandoff(
        role: .child, peer: launch.peer, record: launch.record, progress: launch.progress)
    default:
      if present != 0 {
        StandardError.write(
          "plugboard: warning: ignored \(PLUGBOARD_LAUNCH_VARIABLE), which does not describe this process; "
            + "it is plugboard's own, not to be set by hand", priority: .warning)
      }
      return nil
    }
  }

  /// The shared stage record, mapped; the descriptor is closed either way.
  func mapRecord() -> StageRecord? {
    defer { close(record) }
    return StageRecord.map(descriptor: record)
  }
}
