import Dispatch
import PlugboardEngine
import PlugboardKit

/// The lifecycle cost: what `plugboard run` spends on start and stop
/// hooks beyond the hooks' own work. `lifecycle_50_of_1000`: a container of
/// 1,000 registrations, 50 of them `.container` services with a start and
/// a stop hook that do nothing, each depending on the next (registered in
/// the opposite order, so the plan has to sort them); one operation plans
/// the order from the dependency graph, starts all 50 (each hook in its own
/// task, with its time limit) and stops them in reverse. The baseline
/// resolves the same 50 instances in order and calls the same hooks
/// directly, then again in reverse: the floor any lifecycle pays.
/// `lifecycle_plan_50_of_1000`: the planning alone (the dependency graph
/// and the order), the part that grows with the number of registrations.
/// `lifecycle_2_of_10` and `lifecycle_plan_2_of_10`: the same at the
/// sample deployment's size (Keychain and Auth hooked).
struct LifecycleScenarios {
  let plan: MeasurementPlan

  final class Hooked: Sendable {
    let next: Hooked?
    init(next: Hooked?) { self.next = next }
  }

  func run() -> [ResultRow] {
    // The sample's size (2 hooked services, 10 registrations), and a large one.
    scenarios(hooked: 2, registrations: 10) + scenarios(hooked: 50, registrations: 1_000)
  }

  private func scenarios(hooked: Int, registrations: Int) -> [ResultRow] {
    let container = Self.container(hooked: hooked, registrations: registrations)
    let lifecycle = measure(plan) { count in
      Self.blocking {
        for _ in 0..<count {
          let lifecycle = ServiceLifecycle(container: container)
          try? await lifecycle.start()
          consume(await lifecycle.stop())
        }
      }
    }
    let planning = measure(plan) { count in
      for _ in 0..<count { consume(ServiceLifecycle(container: container)) }
    }
    let direct = measure(plan) { count in
      Self.blocking {
        for _ in 0..<count {
          for index in (0..<hooked).reversed() {
            Self.hook(try? container.resolve(Hooked.self, name: "\(index)"))
          }
          for index in 0..<hooked { Self.hook(try? container.resolve(Hooked.self, name: "\(index)")) }
        }
      }
    }
    let micro = { (measured: Measurement) in Measurement(samples: measured.samples.map { $0 / 1e3 }) }
    let size = "\(hooked)_of_\(registrations)"
    return [
      ResultRow(
        scenario: "lifecycle_\(size)", unit: "µs", plugboard: micro(lifecycle), baseline: micro(direct),
        baselineName: "direct hook calls", target: "measured (no target)", met: nil),
      ResultRow(
        scenario: "lifecycle_plan_\(size)", unit: "µs", plugboard: micro(planning), baseline: nil,
        baselineName: "-", target: "measured (no target)", met: nil),
    ]
  }

  /// Hooked service `i` depends on `i + 1`; registered 0 first, so
  /// registration order is the reverse of start order.
  static func container(hooked: Int, registrations: Int) -> Container {
    let container = Container()
    for index in 0..<hooked {
      let entry = container.register(Hooked.self, name: "\(index)") { resolver in
        Hooked(next: index + 1 < hooked ? try resolver.resolve(Hooked.self, name: "\(index + 1)") : nil)
      }
      .inObjectScope(.container)
      .onStart { hook($0) }
      .onStop { hook($0) }
      if index + 1 < hooked {
        entry.dependsOn(ServiceKey(Hooked.self, name: "\(index + 1)"))
      } else {
        entry.dependsOn()
      }
    }
    for index in hooked..<registrations {
      container.register(String.self, name: "plain \(index)") { _ in "plain" }.dependsOn()
    }
    return container
  }

  @inline(never) static func hook(_ service: Hooked?) { consume(service) }

  /// Runs `body` in a task and waits for it: the benchmark's harness is
  /// synchronous, and both sides pay this once per batch.
  static func blocking(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
      await body()
      done.signal()
    }
    done.wait()
  }
}
