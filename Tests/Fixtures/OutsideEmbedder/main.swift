// A program in a package of its own that embeds the host through the
// PlugboardEngine product, as a team with its own `main` would: only the
// public API (Docs/embedding.md) is in reach. Built and run by
// ExternalEmbedderTests.
import Foundation
import PlugboardEngine

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
  print("usage: outside-embedder MANIFEST PROFILE")
  exit(64)
}
do {
  let deployment = try EmbeddedDeployment.bringUp(manifest: arguments[1], profile: arguments[2])
  print("outside: profile \(deployment.profile ?? "none"), \(deployment.loadedPlugins.count) plugins loaded")
  let report = deployment.check()
  print("outside: check \(report.healthy ? "healthy" : "broken"), \(report.errors) errors")
  let launch = try deployment.launch()
  let status = try await launch.run(arguments: [])
  print("outside: the application ended with status \(status)")
  exit(status)
} catch let error as EmbeddedDeployment.BringUpError {
  for line in error.lines(prefix: "outside: ") { print(line) }
  exit(78)
} catch let error as RunFailure {
  for line in error.lines(prefix: "outside: ", command: nil) { print(line) }
  exit(error.exitStatus)
}
