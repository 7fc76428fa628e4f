import PlugboardAnalysis
import PlugboardEngine
import PlugboardKit

/// `graph --format json`: the graph (``GraphModel``'s nodes, edges and
/// plugins) with the verdict the exit status gives, in format version
/// ``JSONText/formatVersion`` (Docs/schemas/graph.schema.json). Printed
/// also when the manifest is broken: no nodes, and its `problems`.
struct GraphDocument: Encodable {
  let formatVersion = JSONText.formatVersion
  /// The manifest's absolute path.
  let manifest: String
  let nodes: [GraphModel.Node]
  let edges: [GraphModel.Edge]
  let plugins: [GraphModel.Cluster]
  let problems: [DeploymentListing.Problem]
  /// The errors `check` finds besides load failures.
  let findings: [Finding]
  /// No problem and no error: exit status 0.
  let healthy: Bool

  init(manifest: String, model: GraphModel?, problems: [DeploymentProblem], errors: [Finding]) {
    self.manifest = manifest
    nodes = model?.nodes ?? []
    edges = model?.edges ?? []
    plugins = model?.plugins ?? []
    self.problems = problems.map(DeploymentListing.Problem.init)
    findings = errors
    healthy = problems.isEmpty && errors.isEmpty
  }
}
