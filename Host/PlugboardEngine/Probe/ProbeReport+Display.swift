import PlugboardKit

extension ProbeReport.Registration {
  /// `APIClient named "Mock"`, `AppFeature contribution "issues"`: as a
  /// loaded registration's key reads, never a contribution's reserved name.
  var shortDescription: String {
    let key = ServiceKey(service: TypeIdentity(Void.self), name: name)
    let bare = TypeQuery.bareName(type)
    guard key.isContribution else { return bare + (name.map { " named \"\(Terminal.sanitize($0))\"" } ?? "") }
    return bare + " contribution" + (key.contributionName.map { " \"\(Terminal.sanitize($0))\"" } ?? "")
  }
}
