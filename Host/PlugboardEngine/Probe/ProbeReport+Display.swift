import PlugboardKit

extension ProbeReport.Registration {
  /// `APIClient named "Mock"`, `AppFeature contribution "issues"`,
  /// `APIClient decorator "timing"`: as a loaded registration's key reads.
  var shortDescription: String {
    let bare = TypeQuery.bareName(type)
    let quoted = name.map { " \"\(Terminal.sanitize($0))\"" } ?? ""
    switch kind {
    case .service: return bare + (name.map { " named \"\(Terminal.sanitize($0))\"" } ?? "")
    case .decorator: return bare + " decorator" + quoted
    case .contribution: return bare + " contribution" + quoted
    }
  }
}
