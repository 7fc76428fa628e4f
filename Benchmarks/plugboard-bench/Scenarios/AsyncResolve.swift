import PlugboardKit

extension ContainerScenarios {
  /// `try await resolver.resolve` of a transient leaf, registered with an
  /// async factory and with a synchronous one, against the synchronous
  /// resolve of the same leaf. All three resolve by name and run in one
  /// task per batch (the harness is synchronous), so the rows show what
  /// awaiting costs: the task-local chain an async factory runs under,
  /// and the lookup of the record's kind.
  func asyncResolve() -> [ResultRow] {
    let container = Container(defaultObjectScope: .transient)
    container.register(Leaf.self, name: "sync") { _ in Leaf() }
    container.register(Leaf.self, name: "async") { _ async in Leaf() }
    let resolver = container.asyncResolver
    let synchronous = measure(plan, side: .baseline) { count in
      LifecycleScenarios.blocking {
        for _ in 0..<count { consumeResolved { try container.resolve(Leaf.self, name: "sync") } }
      }
    }
    func awaiting(_ name: String) -> Measurement {
      measure(plan) { count in
        LifecycleScenarios.blocking {
          for _ in 0..<count {
            do { consume(try await resolver.resolve(Leaf.self, name: name)) } catch { consume(error) }
          }
        }
      }
    }
    // What an `await` costs next to a synchronous resolve is worth knowing,
    // but no bound on it is promised: measured rows.
    func measured(_ scenario: String, _ name: String) -> ResultRow {
      ResultRow(
        scenario: scenario, unit: "ns/op", plugboard: awaiting(name), baseline: synchronous,
        baselineName: "resolve", target: "measured (no target)", met: nil)
    }
    return [
      measured("async_resolve_async_factory", "async"), measured("async_resolve_sync_factory", "sync"),
    ]
  }
}
