import PlugboardAnalysis
import PlugboardKit

/// The in-process check: `validate_generated_200`, what
/// `container.validate()` costs on the graph of `startup_generated_200`
/// (200 plugins of 20 registrations: in each, a chain S0 ← S1 ← … ← S18
/// and a named `String` that depends on its own last link and on the
/// previous plugin's `String`), built here in process, each plugin's
/// registrations attributed to it. The links are named registrations of one
/// class instead of 19 classes per generated module, which gives the graph
/// the same nodes and edges without generating code. One operation checks
/// the whole graph; the baseline builds its ``DependencyGraph`` alone, the
/// floor any analysis of it pays.
struct ValidationScenarios {
  let plan: MeasurementPlan

  final class Link: Sendable {}

  func run() -> [ResultRow] {
    let plugins = StartupScenarios.generatedPluginCount
    let container = Self.container(plugins: plugins, registrations: StartupScenarios.registrationsPerPlugin)
    // The graph must be what the row says: sound, every edge declared.
    guard (try? container.validate()) != nil, container.check().findings.isEmpty else {
      return [
        .unavailable("validate_generated_\(plugins)", unit: "ms", reason: "error: the graph has findings")
      ]
    }
    let validate = measure(plan) { count in
      for _ in 0..<count { consume(try? container.validate()) }
    }
    let graph = measure(plan, side: .baseline) { count in
      for _ in 0..<count { consume(DependencyGraph(container: container, failedPlugins: [])) }
    }
    let milli = { (measured: Measurement) in Measurement(samples: measured.samples.map { $0 / 1e6 }) }
    return [
      ResultRow(
        scenario: "validate_generated_\(plugins)", unit: "ms", plugboard: milli(validate),
        baseline: milli(graph),
        baselineName: "its DependencyGraph alone", target: "measured (no target)", met: nil)
    ]
  }

  /// The generated deployment's graph, by named registrations.
  static func container(plugins: Int, registrations: Int) -> Container {
    let container = Container()
    let links = registrations - 1
    for plugin in 0..<plugins {
      let name = "Plugin\(plugin)"
      container.attributing(to: name) {
        container.register(Link.self, name: "\(name).0") { _ in Link() }.dependsOn()
        for level in 1..<links {
          container.register(Link.self, name: "\(name).\(level)") { r in
            _ = try r.resolve(Link.self, name: "\(name).\(level - 1)")
            return Link()
          }
          .dependsOn(ServiceKey(Link.self, name: "\(name).\(level - 1)"))
        }
        let last = ServiceKey(Link.self, name: "\(name).\(links - 1)")
        let entry = container.register(String.self, name: name) { _ in name }
        if plugin == 0 {
          entry.dependsOn(last)
        } else {
          entry.dependsOn(last, ServiceKey(String.self, name: "Plugin\(plugin - 1)"))
        }
      }
    }
    return container
  }
}
