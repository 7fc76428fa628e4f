/// A dispose hook that did not complete: which plugin, which registration
/// (its key and site), and how it failed. The text follows the host's
/// lifecycle failures:
///
///     plugin 'Orders': the dispose hook of Transaction (Orders/OrdersAssembly.swift:12) threw: deadlock detected
public struct DisposalFailure: Error, Sendable, CustomStringConvertible {
  public enum Reason: Sendable {
    /// The hook threw; the error's text.
    case threw(String)
    /// The async hook did not return within the limit; its task was
    /// cancelled and left behind.
    case timedOut(Duration)
    /// The hook is async and the scope was ended synchronously, which
    /// cannot wait for it; it did not run.
    case needsAwait
  }

  /// The registration whose instance was being disposed.
  public let registration: RegistrationInfo
  public let reason: Reason

  public var description: String {
    let subject = registration.hookSubject("dispose")
    switch reason {
    case .threw(let message): return "\(subject) threw: \(message)"
    case .timedOut(let limit):
      return "\(subject) did not finish within \(limit) and was cancelled (if it is only slow, give "
        + "the scope a longer disposeTimeout)"
    case .needsAwait:
      return "\(subject) did not run: it is async, and the scope was ended synchronously; end it "
        + "with `await scope.end()`, or use `await container.withScope { … }`"
    }
  }
}
