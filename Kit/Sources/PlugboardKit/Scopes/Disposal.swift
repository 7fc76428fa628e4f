/// Runs the dispose hooks of instances a scope lets go of, newest first,
/// dependents before what they depend on (``disposalOrder(_:)``); every
/// hook runs, and the failures are collected.
enum Disposal {
  /// `dropped` (in the order made) in the order to dispose them: newest
  /// first, except that an instance is disposed before every instance it
  /// declares a dependency on, made later or not. A `.scoped` dependency
  /// reached through a `Lazy` is made after the service that uses it, so
  /// newest first alone would close it while its user may still need it
  /// in its own hook. Declared dependencies only (what `check` sees); a
  /// cycle of them keeps the order made. A dependency on a type served
  /// through `.implements` is one on the registration it forwards to, and
  /// on the forwarded type's own registration, which keeps its instance
  /// in the same scope.
  static func disposalOrder(_ dropped: [DroppedInstance]) -> [DroppedInstance] {
    guard dropped.count > 1 else { return dropped }
    // Made first, disposed last: order dependencies before their
    // dependents, then reverse.
    var positions: [ServiceKey: [Int]] = [:]
    for (index, item) in dropped.enumerated() { positions[item.record.key, default: []].append(index) }
    let forwarding = forwardedKeys(around: dropped)
    var dependencies = [[Int]](repeating: [], count: dropped.count)
    for (index, item) in dropped.enumerated() {
      let info = item.record.info
      let keys = (info.dependencies ?? []) + info.optionalDependencies + info.deferredDependencies.map(\.key)
      dependencies[index] = keys.flatMap { key in
        forwarding.chain(from: key).flatMap { positions[$0] ?? [] }
      }
      .filter { $0 != index }
    }
    var placed = [Bool](repeating: false, count: dropped.count)
    var visiting = [Bool](repeating: false, count: dropped.count)
    var order: [Int] = []
    func place(_ index: Int) {
      guard !placed[index], !visiting[index] else { return }
      visiting[index] = true
      for dependency in dependencies[index] { place(dependency) }
      visiting[index] = false
      placed[index] = true
      order.append(index)
    }
    for index in dropped.indices { place(index) }
    return order.reversed().map { dropped[$0] }
  }

  /// The forwarded types of the containers that made `dropped`, each with
  /// the key it forwards to.
  private static func forwardedKeys(around dropped: [DroppedInstance]) -> ForwardedKeys {
    var owners: [ObjectIdentifier: Container] = [:]
    for item in dropped { owners[ObjectIdentifier(item.record.owner)] = item.record.owner }
    var targets: [ServiceKey: ServiceKey] = [:]
    for owner in owners.values {
      for record in owner.registry.records {
        if let target = record.readingMetadata({ $0.forwardsTo }) { targets[record.key] = target }
      }
    }
    return ForwardedKeys(targets: targets)
  }

  /// Forwarded types and the keys they forward to.
  private struct ForwardedKeys {
    let targets: [ServiceKey: ServiceKey]

    /// `key`, then the key it forwards to, and so on; a loop of
    /// forwarding (which resolving reports as a cycle) ends the chain.
    func chain(from key: ServiceKey) -> [ServiceKey] {
      var chain = [key]
      var current = key
      while let next = targets[current], !chain.contains(next) {
        chain.append(next)
        current = next
      }
      return chain
    }
  }

  /// The hooks of `dropped`, in ``disposalOrder(_:)``, on the calling
  /// thread. An async hook cannot be awaited here and is reported as such.
  static func runSynchronously(_ dropped: [DroppedInstance]) -> (hooks: Int, failures: [DisposalFailure]) {
    var (hooks, failures) = (0, [DisposalFailure]())
    for item in disposalOrder(dropped) {
      guard let hook = item.record.readingMetadata({ $0.dispose }) else { continue }
      hooks += 1
      switch hook {
      case .sync(let body):
        do { try body(item.instance) } catch {
          failures.append(DisposalFailure(registration: item.record.info, reason: .threw(describe(error))))
        }
      case .async:
        failures.append(DisposalFailure(registration: item.record.info, reason: .needsAwait))
      }
    }
    return (hooks, failures)
  }

  /// The hooks of `dropped`, in ``disposalOrder(_:)``, each async one
  /// within `limit`.
  static func run(_ dropped: [DroppedInstance], limit: Duration) async -> (
    hooks: Int, failures: [DisposalFailure]
  ) {
    var (hooks, failures) = (0, [DisposalFailure]())
    for item in disposalOrder(dropped) {
      guard let hook = item.record.readingMetadata({ $0.dispose }) else { continue }
      hooks += 1
      let reason: DisposalFailure.Reason
      switch hook {
      case .sync(let body):
        do {
          try body(item.instance)
          continue
        } catch {
          reason = .threw(describe(error))
        }
      case .async(let body):
        switch await HookDeadline.run(limit: limit, { try await body(item.instance) }) {
        // Not interruptible: a scope's end runs every hook.
        case .finished, .interrupted: continue
        case .failed(let error): reason = .threw(describe(error))
        case .timedOut: reason = .timedOut(limit)
        }
      }
      failures.append(DisposalFailure(registration: item.record.info, reason: reason))
    }
    return (hooks, failures)
  }

  /// Disposes what a reset dropped, which nobody can be made to wait for:
  /// synchronous hooks now, async ones in a task of their own; failures
  /// go to the container's ``Logger`` (or standard error when there is
  /// none), since a reset has no caller to throw them to.
  static func afterReset(_ dropped: [DroppedInstance], in container: Container) {
    guard !dropped.isEmpty else { return }
    let (_, failures) = runSynchronously(dropped.filter { !$0.isAsync })
    report(failures, in: container)
    let later = dropped.filter(\.isAsync)
    guard !later.isEmpty else { return }
    let limit = container.disposeTimeout
    Task {
      let (_, failures) = await run(later, limit: limit)
      report(failures, in: container)
    }
  }

  /// Writes `failures` as errors to the container's logger.
  static func report(_ failures: [DisposalFailure], in container: Container) {
    guard !failures.isEmpty else { return }
    let logger = (try? container.resolveIfRegistered((any Logger).self)) ?? StandardErrorLogger()
    for failure in failures { logger.error("\(failure)") }
  }

  private static func describe(_ error: any Error) -> String { ResolutionError.describe(error) }
}

extension DroppedInstance {
  var isAsync: Bool {
    guard case .async = record.readingMetadata({ $0.dispose }) else { return false }
    return true
  }
}
