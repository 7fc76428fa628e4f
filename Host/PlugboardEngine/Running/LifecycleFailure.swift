import PlugboardKit

/// A start or stop hook that did not complete: which plugin, which service
/// (its key and registration site), which hook, and how it failed.
public struct LifecycleFailure: Error, Sendable, CustomStringConvertible {
  public enum Reason: Sendable {
    /// The hook threw; the error's text.
    case threw(String)
    /// The instance the hook is given could not be made, so the hook
    /// never ran; the resolution error's text.
    case instanceNotMade(String)
    /// The hook did not return within the limit; its task was cancelled.
    case timedOut(Duration)
    /// Shut-down was asked for (SIGINT, SIGTERM) while the hook ran.
    case interrupted
  }

  public let hook: LifecycleHook
  public let registration: RegistrationInfo
  public let reason: Reason

  /// `plugin 'Auth': the start hook of AuthService (Auth/AuthAssembly.swift:7) threw: …`
  public var description: String {
    let subject = registration.hookSubject(hook.rawValue)
    switch reason {
    case .threw(let message): return "\(subject) threw: \(message)"
    case .instanceNotMade(let message):
      return "\(subject) did not run: the instance it is given could not be made:\n\(message)"
    case .timedOut(let limit):
      return
        "\(subject) did not finish within \(ProgressEvent.seconds(limit)) s and was cancelled (if it is only "
        + "slow, raise \"hookTimeout\" in the manifest or pass --hook-timeout)"
    case .interrupted: return "\(subject) was interrupted by the request to stop"
    }
  }
}
