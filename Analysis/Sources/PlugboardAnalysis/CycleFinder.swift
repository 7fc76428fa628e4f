import PlugboardKit

/// Finds cycles of declared dependencies by depth-first search from the
/// entry point, then from every other registration: each edge back to a
/// registration still on the search path closes a cycle.
///
/// Every cycle is reported once, however many of its members the search
/// enters it from. Cycles through optional dependencies count: when the
/// provider exists, the factory resolves it and the cycle is real. Deferred
/// edges (`Lazy`, `Provider`, `initCompleted`) do not: they are resolved
/// after the instance exists, which is how a cycle is broken.
public enum CycleFinder {
  public struct Cycle: Equatable, Sendable {
    /// The registrations around the cycle, in dependency order; the last
    /// one depends on the first.
    public let members: [Int]
    /// The path from where the search started down to the first member,
    /// excluding it: from the entry point when the cycle is reachable.
    public let approach: [Int]
  }

  public static func cycles(in graph: DependencyGraph) -> [Cycle] {
    // By index, not in sets: a large deployment has thousands of nodes.
    var finished = [Bool](repeating: false, count: graph.nodes.count)
    var path: [Int] = []
    var onPath = [Bool](repeating: false, count: graph.nodes.count)
    var found: [Cycle] = []
    var seen = Set<[Int]>()

    func visit(_ node: Int) {
      path.append(node)
      onPath[node] = true
      for edge in graph.edges(from: node) where !edge.isDeferred {
        guard let target = edge.to else { continue }
        if onPath[target], let start = path.firstIndex(of: target) {
          let members = Array(path[start...])
          if seen.insert(canonical(members)).inserted {
            found.append(Cycle(members: members, approach: Array(path[..<start])))
          }
        } else if !finished[target] {
          visit(target)
        }
      }
      path.removeLast()
      onPath[node] = false
      finished[node] = true
    }

    let starts = (graph.root.map { [$0] } ?? []) + Array(graph.nodes.indices)
    for start in starts where !finished[start] { visit(start) }
    return found
  }

  /// The cycle rotated to start at its smallest member, to recognise it
  /// whichever member the search entered by.
  private static func canonical(_ members: [Int]) -> [Int] {
    guard let smallest = members.indices.min(by: { members[$0] < members[$1] }) else { return members }
    return Array(members[smallest...] + members[..<smallest])
  }

  /// The edges of `cycles`, as (from, to) pairs, for highlighting.
  public static func edges(of cycles: [Cycle]) -> Set<[Int]> {
    var edges = Set<[Int]>()
    for cycle in cycles {
      for (offset, member) in cycle.members.enumerated() {
        edges.insert([member, cycle.members[(offset + 1) % cycle.members.count]])
      }
    }
    return edges
  }
}
