import PlugboardKit

/// The order plugins assemble in: every plugin after the plugins it
/// requires (``PluginBundle/requirements``), manifest order otherwise (a
/// stable topological order), and the plugins whose requirements cannot
/// hold: a required plugin the deployment does not load, one in a version
/// outside the range, a cycle of requirements. Each such problem names
/// both plugins; a plugin that requires a refused one is refused too.
///
/// Requirements live in the plugin's bundle, so they are known only once
/// every plugin loaded: loading stays in manifest order, assembling (and
/// `loaded(resolver:)`) follows this order.
public struct AssemblyOrder: Sendable {
  /// One plugin in the order, with the requirements that placed it there.
  public struct Step: Sendable, Equatable, Encodable {
    public let plugin: String
    /// `Networking 1.0.0..<2.0.0`, one per requirement, in declared order.
    public let requires: [String]
  }

  /// The plugins that assemble, in order.
  public let steps: [Step]
  /// Indices into the outcomes, in ``steps``' order.
  let indices: [Int]
  /// The plugins refused, by index into the outcomes.
  let refusals: [Int: DeploymentProblem]

  /// `load order: Networking, Keychain, Auth (requires Networking 1.0.0..<2.0.0), …`
  public var line: String { Self.line(of: steps) }

  static func line(of steps: [Step]) -> String {
    let items = steps.map { step in
      step.requires.isEmpty
        ? step.plugin : "\(step.plugin) (requires \(step.requires.joined(separator: ", ")))"
    }
    return "load order: " + (items.isEmpty ? "no plugin loaded" : items.joined(separator: ", "))
  }

  /// The order of the loaded plugins among `outcomes`; without
  /// `enforcingRequirements`, their load order, refusing none.
  init(_ outcomes: [PluginOutcome], enforcingRequirements: Bool = true) {
    var ordering = Ordering(outcomes)
    if enforcingRequirements {
      ordering.refuseRequirementsThatCannotHold(in: outcomes)
      indices = ordering.place()
    } else {
      indices = ordering.loaded.keys.sorted()
    }
    refusals = ordering.refusals
    steps = indices.compactMap { index in
      ordering.loaded[index].map {
        Step(plugin: $0.name, requires: $0.bundle.requirements.map(\.description))
      }
    }
  }

  /// The work of ordering: the loaded plugins by index into the outcomes,
  /// the first index of each name, and the refusals so far.
  private struct Ordering {
    var loaded: [Int: LoadedPlugin] = [:]
    var byName: [String: Int] = [:]
    var refusals: [Int: DeploymentProblem] = [:]

    init(_ outcomes: [PluginOutcome]) {
      for (index, outcome) in outcomes.enumerated() {
        byName[outcome.entry.name] = byName[outcome.entry.name] ?? index
        if case .loaded(let plugin) = outcome { loaded[index] = plugin }
      }
    }

    /// Refuses a loaded plugin, once: its first problem is the one told.
    mutating func refuse(_ index: Int, _ detail: String) {
      guard let plugin = loaded[index], refusals[index] == nil else { return }
      refusals[index] = .plugin(plugin.name, file: plugin.file, stage: .requirements, detail)
    }

    /// Refuses each plugin with a requirement that cannot hold, whatever
    /// the order.
    mutating func refuseRequirementsThatCannotHold(in outcomes: [PluginOutcome]) {
      for index in loaded.keys.sorted() {
        guard let plugin = loaded[index] else { continue }
        for requirement in plugin.bundle.requirements {
          if let problem = AssemblyOrder.problem(of: requirement, in: outcomes, byName: byName) {
            refuse(index, problem)
            break
          }
        }
      }
    }

    /// The plugins not refused, each after those it requires, in load
    /// order otherwise; a cycle's members are refused.
    mutating func place() -> [Int] {
      var placed: [Int] = []
      var isPlaced = Set<Int>()
      var waiting = loaded.keys.sorted()
      while !waiting.isEmpty {
        // Without a refusal there is nothing to pass on: the pass, once
        // per plugin placed, would make ordering quadratic in plugins.
        if !refusals.isEmpty { passOnRefusals(to: &waiting) }
        let ready = waiting.first { index in
          (loaded[index]?.bundle.requirements ?? []).allSatisfy {
            byName[$0.name].map(isPlaced.contains) ?? false
          }
        }
        if let ready {
          placed.append(ready)
          isPlaced.insert(ready)
          waiting.removeAll { $0 == ready }
          continue
        }
        guard let start = waiting.first else { break }
        let among = Set(waiting)
        for (index, detail) in AssemblyOrder.cycle(from: start, among: among, loaded: loaded, byName: byName)
        {
          refuse(index, detail)
        }
        // Bounded: each round places or refuses at least one plugin.
        if refusals[start] == nil { refuse(start, "is in a cycle of requirements") }
      }
      return placed
    }

    /// Refuses each waiting plugin that requires a refused one, and stops
    /// waiting for the refused.
    private mutating func passOnRefusals(to waiting: inout [Int]) {
      for index in waiting where refusals[index] == nil {
        guard let plugin = loaded[index] else { continue }
        for requirement in plugin.bundle.requirements {
          guard let required = byName[requirement.name], refusals[required] != nil else { continue }
          refuse(
            index,
            "requires plugin '\(requirement.name)' (\(requirement.range)), which was refused: "
              + (refusals[required]?.message ?? ""))
          break
        }
      }
      waiting.removeAll { refusals[$0] != nil }
    }
  }

  /// Why `requirement` cannot hold in `outcomes`, or nil.
  private static func problem(
    of requirement: PluginRequirement, in outcomes: [PluginOutcome], byName: [String: Int]
  ) -> String? {
    let wanted = "plugin '\(requirement.name)' (\(requirement.range))"
    if let invalid = requirement.invalidBound {
      return
        "requires plugin '\(requirement.name)' in versions \(requirement.range), but \"\(invalid)\" is not a "
        + "version (expected MAJOR.MINOR.PATCH) — correct the plugin's requirements"
    }
    guard let index = byName[requirement.name] else {
      return "requires \(wanted), which the deployment does not load: the manifest does not name it — add "
        + "plugin '\(requirement.name)' to the manifest"
    }
    switch outcomes[index] {
    case .disabled(let entry):
      return "requires \(wanted), which the deployment does not load: plugin '\(entry.name)' is disabled or "
        + "left out of this profile — load it wherever this plugin loads"
    case .failed(let entry, _):
      return "requires \(wanted), which the deployment does not load: plugin '\(entry.name)' failed (its "
        + "failure is reported on its own)"
    case .loaded(let provider):
      guard let version = SemanticVersion(parsing: provider.version), requirement.accepts(version) else {
        return "requires \(wanted), but plugin '\(provider.name)' (\(provider.file)) is version "
          + "\(provider.version) — use a version of '\(provider.name)' in that range, or update this plugin"
      }
      return nil
    }
  }

  /// The cycle of requirements reached from `start`, each member with its
  /// problem, naming the plugin it requires and the one requiring it.
  private static func cycle(
    from start: Int, among waiting: Set<Int>, loaded: [Int: LoadedPlugin], byName: [String: Int]
  ) -> [(Int, String)] {
    var path: [Int] = []
    var position: [Int: Int] = [:]
    var current = start
    while position[current] == nil {
      position[current] = path.count
      path.append(current)
      guard
        let next = loaded[current]?.bundle.requirements.lazy.compactMap({ byName[$0.name] })
          .first(where: waiting.contains)
      else { return [] }
      current = next
    }
    let members = Array(path[(position[current] ?? 0)...])
    let links = members.enumerated().compactMap { offset, index -> String? in
      let next = members[(offset + 1) % members.count]
      guard let plugin = loaded[index], let required = loaded[next] else { return nil }
      let requirement = plugin.bundle.requirements.first { $0.name == required.name }
      return "'\(plugin.name)' requires \(requirement?.description ?? required.name)"
    }
    return members.enumerated().compactMap { offset, index in
      let previous = members[(offset + members.count - 1) % members.count]
      let next = members[(offset + 1) % members.count]
      guard let requirer = loaded[previous], let required = loaded[next] else { return nil }
      let others =
        requirer.name == required.name
        ? "plugin '\(required.name)'"
        : "plugin '\(required.name)' and is required by plugin '\(requirer.name)'"
      return (
        index,
        "is in a cycle of requirements: it requires \(others) (\(links.joined(separator: ", "))) — a cycle "
          + "has no order to assemble in; remove one of the requirements"
      )
    }
  }
}
