/// What ``ServiceScope``'s `end()` throws when dispose hooks failed, after
/// every hook has had its turn: each failure names the registration, its
/// site and plugin.
///
/// ```
/// ending the scope, 1 of 3 dispose hooks failed:
///   - plugin 'Orders': the dispose hook of Transaction (Orders/OrdersAssembly.swift:12) threw: deadlock detected
/// ```
public struct ScopeDisposalError: Error, Sendable, CustomStringConvertible {
  /// The failed hooks, in the order they ran (newest instance first).
  public let failures: [DisposalFailure]
  /// How many dispose hooks the scope ran or tried to run.
  public let hooks: Int

  public var description: String {
    let lines = failures.map { "  - \($0)" }
    let count = "\(failures.count) of \(hooks) dispose hook\(hooks == 1 ? "" : "s")"
    return (["ending the scope, \(count) failed:"] + lines).joined(separator: "\n")
  }
}
