import AppContracts
import PlugboardKit

/// Data layer: the HTTP transport (answered from in-process fixtures, so the
/// sample works offline) and the typed API client on top of it.
struct NetworkingAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any HTTPTransport).self) { _ in FixtureTransport() }
      .inObjectScope(.container).dependsOn()  // resolves nothing
    container.register((any APIClient).self) { resolver in
      RemoteAPIClient(transport: try resolver.resolve(), endpoint: endpoint)
    }
    .inObjectScope(.container)
    .dependsOn((any HTTPTransport).self)
    // The plugin's own mock, chosen per service by a profile's
    // `"APIClient": "Mock"`; unused otherwise.
    container.autoregister((any APIClient).self, name: "Mock") { FixtureAPIClient(endpoint: endpoint) }
      .inObjectScope(.container)
  }

  /// From the plugin's configuration in the active profile.
  let endpoint: Endpoint
}
