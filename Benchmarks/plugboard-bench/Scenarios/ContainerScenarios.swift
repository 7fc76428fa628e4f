import Dispatch
import PlugboardKit
import Synchronization

final class Leaf {}
protocol Named: AnyObject {}
final class NamedService: Named {}
final class Missing {}

/// The in-process scenarios: resolution against hand-written code.
struct ContainerScenarios {
  let plan: MeasurementPlan

  /// The scenarios' names, in the order they run.
  static let names = ContainerScenarios(plan: .quick).scenarios.map(\.0)

  /// Runs every scenario, or only those whose name starts with `only`
  /// (`exactly`: only the one named `only`).
  func run(only: String?, exactly: Bool = false) -> [ResultRow] {
    scenarios.filter { only == nil || (exactly ? $0.0 == only : $0.0.hasPrefix(only ?? "")) }.flatMap {
      $0.1()
    }
  }

  private var scenarios: [(String, () -> [ResultRow])] {
    [
      ("graph10_transient", graph10), ("graph10_shared", { [graphShared()] }),
      ("arguments_2", { [arguments2()] }), ("arguments_4", { [arguments4()] }),
      ("transient_leaf", { [transientLeaf()] }),
      ("singleton", { [singleton()] }), ("named_100", { [named100()] }),
      ("resolve_all_10", { [resolveAll10()] }),
      ("wide_1000", { [wide1000()] }), ("register_wide_1000", { [registerWide1000()] }),
      ("reregister_resolve", { [reregisterResolve()] }),
      ("interleaved_register_resolve", { [interleavedRegisterResolve()] }),
      ("missing_optional_12", { [missing(registrations: 12)] }),
      ("missing_optional_1000", { [missing(registrations: 1_000)] }),
      ("missing_throwing_1000", { [missingThrowing()] }),
      ("concurrent_singleton", { [concurrentSingleton(), concurrentStoredReference()] }),
      ("async_resolve", asyncResolve),
      ("scope_10_make_dispose", { [scope10MakeDispose()] }),
    ]
  }

  func graph10() -> [ResultRow] {
    let direct = measure(plan, side: .baseline) { count in
      for _ in 0..<count { consume(Graph10.direct()) }
    }
    let container = Graph10.container()
    let resolved = measure(plan) { count in
      for _ in 0..<count { consumeResolved { try container.resolve(S0.self) } }
    }
    return [
      ResultRow(
        scenario: "direct", unit: "ns/op", plugboard: direct, baseline: nil, baselineName: "-",
        target: "the floor", met: nil),
      row("graph10_transient", resolved, baseline: direct, "direct", limit: 2),
    ]
  }

  /// Ten objects, one `.graph` object shared by the five leaves.
  func graphShared() -> ResultRow {
    let direct = measure(plan, side: .baseline) { count in
      for _ in 0..<count { consume(GraphShared.direct()) }
    }
    let container = GraphShared.container()
    let resolved = measure(plan) { count in
      for _ in 0..<count { consumeResolved { try container.resolve(G0.self) } }
    }
    return row("graph10_shared", resolved, baseline: direct, "direct", limit: 2)
  }

  /// `resolve(ArgService.self, arguments: "Mimi", 3)` against calling a
  /// function that takes the same two parameters.
  func arguments2() -> ResultRow {
    let container = Arguments.container()
    let byHand = measure(plan, side: .baseline) { count in
      for _ in 0..<count { consume(Arguments.direct("Mimi", 3)) }
    }
    let resolved = measure(plan) { count in
      for _ in 0..<count { consumeResolved { try container.resolve(ArgService.self, arguments: "Mimi", 3) } }
    }
    return row("arguments_2", resolved, baseline: byHand, "direct(_:_:)", limit: 2)
  }

  /// Four arguments: the cost per argument must not grow with the arity.
  func arguments4() -> ResultRow {
    let container = Arguments.container()
    let byHand = measure(plan, side: .baseline) { count in
      for _ in 0..<count { consume(Arguments.direct("Mimi", 3, 4.5, true)) }
    }
    let resolved = measure(plan) { count in
      for _ in 0..<count {
        consumeResolved { try container.resolve(WideArgService.self, arguments: "Mimi", 3, 4.5, true) }
      }
    }
    return row("arguments_4", resolved, baseline: byHand, "direct(_:_:_:_:)", limit: 2)
  }

  func transientLeaf() -> ResultRow {
    let container = Container(defaultObjectScope: .transient)
    container.register(Leaf.self) { _ in Leaf() }
    let byHand = measure(plan, side: .baseline) { count in
      for _ in 0..<count { consume(makeLeaf()) }
    }
    let resolved = measure(plan) { count in
      for _ in 0..<count { consumeResolved { try container.resolve(Leaf.self) } }
    }
    return row("transient_leaf", resolved, baseline: byHand, "Leaf()", limit: 2)
  }

  func singleton() -> ResultRow {
    let container = Container()
    container.register(Leaf.self) { _ in Leaf() }.inObjectScope(.container)
    _ = try? container.resolve(Leaf.self)
    let stored = StoredReference(Leaf())
    let byHand = measure(plan, side: .baseline) { count in
      for _ in 0..<count { consume(stored.read()) }
    }
    let resolved = measure(plan) { count in
      for _ in 0..<count { consumeResolved { try container.resolve(Leaf.self) } }
    }
    return ResultRow(
      scenario: "singleton", unit: "ns/op", plugboard: resolved, baseline: byHand,
      baselineName: "stored reference", target: "≤ 15 ns", met: resolved.median <= 15)
  }

  func named100() -> ResultRow {
    let container = Container(defaultObjectScope: .transient)
    for index in 0..<100 {
      container.register(Named.self, name: "n\(index)") { _ in NamedService() }
    }
    let name = "n57"
    let byHand = measure(plan, side: .baseline) { count in
      for _ in 0..<count { consume(makeNamed()) }
    }
    let resolved = measure(plan) { count in
      for _ in 0..<count { consumeResolved { try container.resolve(Named.self, name: name) } }
    }
    return row("named_100", resolved, baseline: byHand, "NamedService()", limit: 2)
  }

  /// Ten transient contributions resolved as one array, against the same
  /// ten instances appended to an array by hand.
  func resolveAll10() -> ResultRow {
    let container = Container(defaultObjectScope: .transient)
    for index in 0..<10 {
      container.contribute((any Named).self, order: index % 3) { _ in NamedService() }
    }
    let byHand = measure(plan, side: .baseline) { count in
      for _ in 0..<count {
        var all: [any Named] = []
        all.reserveCapacity(10)
        for _ in 0..<10 { all.append(makeNamed()) }
        consume(all)
      }
    }
    let resolved = measure(plan) { count in
      for _ in 0..<count { consumeResolved { try container.resolveAll((any Named).self) } }
    }
    return row("resolve_all_10", resolved, baseline: byHand, "10 × NamedService() into an array", limit: 1.5)
  }

  func wide1000() -> ResultRow {
    let container = Container(defaultObjectScope: .transient)
    Wide1000.register(into: container)
    let byHand = measure(plan, side: .baseline) { count in
      for _ in 0..<count { consume(Wide1000.direct()) }
    }
    let resolved = measure(plan) { count in
      for _ in 0..<count { consumeResolved { try container.resolve(Wide1000.Target.self) } }
    }
    return row("wide_1000", resolved, baseline: byHand, "W499()", limit: 2)
  }

  func registerWide1000() -> ResultRow {
    // Time to build the container and make it ready (its first lookup
    // publishes the registry), in microseconds per container. Tearing the
    // containers down is not building them, so it happens off the clock.
    let built = measure(plan) { count in
      var containers: [Container] = []
      containers.reserveCapacity(min(count, 4_096))
      for _ in 0..<count {
        let container = Container(defaultObjectScope: .transient)
        Wide1000.register(into: container)
        consume(container.hasRegistration(Wide1000.Target.self))
        containers.append(container)
        if containers.count == 4_096 { pauseClock { containers.removeAll(keepingCapacity: true) } }
      }
      pauseClock { containers.removeAll() }
    }
    let microseconds = Measurement(samples: built.samples.map { $0 / 1_000 })
    return ResultRow(
      scenario: "register_wide_1000", unit: "µs", plugboard: microseconds, baseline: nil,
      baselineName: "-", target: "≤ 200 µs", met: microseconds.median <= 200)
  }

  /// Registering into a container that has resolved, then resolving, round
  /// after round: the time of one round, over 3,000 rounds on
  /// one container, against the same over 300. Equal when a round's cost
  /// does not grow with the rounds before it; a design that rebuilt its
  /// snapshot from every registration ever made would be about 10× here.
  func reregisterResolve() -> ResultRow {
    func perRound(_ rounds: Int) -> Measurement {
      let loops = measure(plan) { count in
        for _ in 0..<count {
          let container = Container()
          for _ in 0..<rounds {
            container.register(Leaf.self) { _ in Leaf() }
            consumeResolved { try container.resolve(Leaf.self) }
          }
        }
      }
      return Measurement(samples: loops.samples.map { $0 / Double(rounds) })
    }
    let short = perRound(300)
    let long = perRound(3_000)
    return row("reregister_resolve_3000", long, baseline: short, "300 rounds", limit: 1.5)
  }

  /// Registering a new key into a container that has resolved, then
  /// resolving it, round after round: the time of one of the
  /// last 500 of 3,000 rounds on one container, against one of the first
  /// 500. Equal when publishing a registration costs the same however many
  /// came before; rebuilding the snapshot from every registration made the
  /// last rounds 14× the first. Each repetition is one container, timed
  /// round by round rather than calibrated, since a slow design would take
  /// seconds per container.
  func interleavedRegisterResolve() -> ResultRow {
    let names = (0..<3_000).map { "s\($0)" }
    var first: [Double] = []
    var last: [Double] = []
    for _ in 0..<(plan.fixedIterations == nil ? plan.repetitions : 1) {
      let container = Container()
      var lap = now()
      for (round, name) in names.enumerated() {
        container.register(Named.self, name: name) { _ in NamedService() }
        consumeResolved { try container.resolve(Named.self, name: name) }
        if round == 499 {
          first.append(Double(now() - lap) / 500)
        } else if round == 2_499 {
          lap = now()
        }
      }
      last.append(Double(now() - lap) / 500)
    }
    let early = Measurement(samples: first)
    let late = Measurement(samples: last)
    return ResultRow(
      scenario: "interleaved_register_resolve_3000", unit: "ns/op", plugboard: late, baseline: early,
      baselineName: "first 500 rounds", target: "≤ 1.5× baseline, ≤ 2 µs",
      met: late.median <= early.median * 1.5 && late.median <= 2_000)
  }

  /// A scope's life: make a scope, resolve ten `.scoped`
  /// services in it (each once), end it, which runs their ten synchronous
  /// dispose hooks newest first; against making the ten instances by
  /// hand and calling the same hook on each, in reverse.
  func scope10MakeDispose() -> ResultRow {
    let container = Container()
    for index in 0..<10 {
      container.register(Leaf.self, name: "s\(index)") { _ in Leaf() }
        .inObjectScope(.scoped)
        .onDispose { disposeLeaf($0) }
    }
    let names = (0..<10).map { "s\($0)" }
    let byHand = measure(plan, side: .baseline) { count in
      for _ in 0..<count {
        var made: [Leaf] = []
        made.reserveCapacity(10)
        for _ in 0..<10 { made.append(makeLeaf()) }
        for leaf in made.reversed() { disposeLeaf(leaf) }
      }
    }
    let scoped = measure(plan) { count in
      for _ in 0..<count {
        let scope = container.makeScope()
        for name in names { consumeResolved { try scope.resolve(Leaf.self, name: name) } }
        do { try scope.end() } catch { consume(error) }
      }
    }
    return ResultRow(
      scenario: "scope_10_make_dispose", unit: "ns/op", plugboard: scoped, baseline: byHand,
      baselineName: "10 × Leaf() and a dispose call", target: "measured (no target)", met: nil)
  }

  func missing(registrations: Int) -> ResultRow {
    let container = Container()
    if registrations == 1_000 {
      Wide1000.register(into: container)
    } else {
      Graph10.register(into: container)
      container.register(Leaf.self) { _ in Leaf() }
      container.register(Named.self) { _ in NamedService() }
    }
    let resolved = measure(plan) { count in
      for _ in 0..<count { consume(try? container.resolveIfRegistered(Missing.self)) }
    }
    return ResultRow(
      scenario: "missing_optional_\(registrations)", unit: "ns/op", plugboard: resolved,
      baseline: nil, baselineName: "-", target: "≤ 100 ns", met: resolved.median <= 100)
  }

  /// A failed `resolve` among 1,000 registrations, as a program that
  /// reports it pays: the `ResolutionError` and its rendered report, whose
  /// suggestions search the registrations.
  func missingThrowing() -> ResultRow {
    let container = Container()
    Wide1000.register(into: container)
    let resolved = measure(plan) { count in
      for _ in 0..<count {
        do { consume(try container.resolve(Missing.self)) } catch { consume(String(describing: error)) }
      }
    }
    return ResultRow(
      scenario: "missing_throwing_1000", unit: "ns/op", plugboard: resolved, baseline: nil,
      baselineName: "-", target: "measured (no target)", met: nil)
  }

  func concurrentSingleton() -> ResultRow {
    let made = Atomic(0)
    let container = Container()
    container.register(Leaf.self) { _ in
      made.add(1, ordering: .relaxed)
      return Leaf()
    }.inObjectScope(.container)
    // Throughput in resolves per nanosecond is inverted into ns per resolve
    // of the whole system: two threads should halve it.
    let (oneThread, twoThreads) = oneAndTwoThreads { consumeResolved { try container.resolve(Leaf.self) } }
    let speedup = oneThread.median / twoThreads.median
    let instances = made.load(ordering: .relaxed)
    return ResultRow(
      scenario: "concurrent_singleton", unit: "ns/op (system)", plugboard: twoThreads,
      baseline: oneThread, baselineName: "one thread",
      target: "≥ 1.6× throughput (got \(ResultTable.format(speedup))×), 1 instance (got \(instances))",
      met: speedup >= 1.6 && instances == 1)
  }

  /// The same two-thread experiment on a hand-written singleton (a stored
  /// reference): returning a shared class instance retains and releases
  /// it, and two cores doing that to one object contend on its reference
  /// count. This is the ceiling any Swift container returning the instance
  /// itself can reach.
  func concurrentStoredReference() -> ResultRow {
    let stored = StoredReference(Leaf())
    let (oneThread, twoThreads) = oneAndTwoThreads { consume(stored.read()) }
    let speedup = oneThread.median / twoThreads.median
    return ResultRow(
      scenario: "concurrent_stored_reference", unit: "ns/op (system)", plugboard: twoThreads,
      baseline: oneThread, baselineName: "one thread",
      target: "hand-written ceiling (got \(ResultTable.format(speedup))×)", met: nil)
  }

  /// `operation` timed on one thread, then split over two at once; both
  /// in ns per operation of the whole system, so two threads that do not
  /// slow each other halve it.
  private func oneAndTwoThreads(_ operation: @Sendable () -> Void) -> (Measurement, Measurement) {
    let oneThread = measure(plan) { count in
      for _ in 0..<count { operation() }
    }
    let twoThreads = measure(plan) { count in
      DispatchQueue.concurrentPerform(iterations: 2) { _ in
        for _ in 0..<(count / 2) { operation() }
      }
    }
    return (oneThread, twoThreads)
  }

  func row(
    _ scenario: String, _ measured: Measurement, baseline: Measurement, _ baselineName: String,
    limit: Double
  ) -> ResultRow {
    let ratio = measured.median / baseline.median
    return ResultRow(
      scenario: scenario, unit: "ns/op", plugboard: measured, baseline: baseline,
      baselineName: baselineName, target: "≤ \(ResultTable.format(limit))× baseline",
      met: ratio <= limit)
  }
}

@inline(never) func makeLeaf() -> Leaf { Leaf() }
@inline(never) func makeNamed() -> any Named { NamedService() }
@inline(never) func disposeLeaf(_ leaf: Leaf) { consume(leaf) }

/// A reference read through a class field, as a hand-written singleton is:
/// the accessor is not inlined and its result is consumed owned (see
/// ``consume(_:)``), so the read retains the object and the sink releases
/// it, as real code that keeps or passes on the reference does.
final class StoredReference: @unchecked Sendable {
  let value: Leaf
  init(_ value: Leaf) { self.value = value }
  @inline(never) func read() -> Leaf { value }
}
