/// A profile's choice of the registration that serves a service:
/// `"services": { "APIClient": "Mock" }` in `profiles.mock` makes every
/// unnamed request for `APIClient` get its registration named "Mock".
package struct ServiceChoice: Equatable, Sendable {
  /// The service type as written: a bare name (`APIClient`) or a fully
  /// qualified one (`AppContracts.APIClient`).
  package let type: String
  /// The registration name that serves unnamed requests.
  package let name: String
  /// Where the choice is written, for messages:
  /// `profiles.mock.services.APIClient`.
  package let path: ManifestPath

  package init(type: String, name: String, path: ManifestPath) {
    self.type = type
    self.name = name
    self.path = path
  }
}
