import PlugboardKit

/// How the PlugboardKit a plugin was compiled against relates to the one
/// this host runs, by the promise Kit's semantic version makes (Kit/ABI.md).
///
/// PlugboardKit is built with library evolution, so a plugin's compiled code
/// keeps working against every later release of the same major version. The
/// other way round does not hold: a plugin compiled against a newer minor
/// release may call what this host's Kit lacks, and another major version
/// is allowed to break anything. The patch number promises nothing about
/// the interface, so it does not count; nor does the build metadata after
/// `+` (the fingerprint of Kit's sources), which only tells builds apart.
package enum KitCompatibility: Equatable, Sendable {
  /// The host's minor release (any patch of it): the same interface.
  case same
  /// An older minor release of the host's major version: its code runs
  /// against the host's Kit, which only added to what it had.
  case older
  /// A newer minor release of the host's major version.
  case newerMinor
  /// Another major version.
  case otherMajor
  /// Not a version at all, so nothing can be promised.
  case unreadable

  /// Compares the version a plugin recorded with the host's.
  package init(plugin: String, host: String) {
    // A plugin built against this very Kit records the same text, so it
    // is parsed once.
    guard let mine = SemanticVersion(parsing: host),
      let theirs = plugin == host ? mine : SemanticVersion(parsing: plugin)
    else {
      self = .unreadable
      return
    }
    if theirs.major != mine.major {
      self = .otherMajor
    } else if theirs.minor > mine.minor {
      self = .newerMinor
    } else if theirs.minor == mine.minor {
      self = .same
    } else {
      self = .older
    }
  }

  /// Whether the host may load the plugin.
  package var isAccepted: Bool { self == .same || self == .older }

  /// The name `list --json` and `explain` give it: "same" or "older" for
  /// an accepted plugin.
  package var name: String {
    switch self {
    case .same: "same"
    case .older: "older"
    case .newerMinor: "newer-minor"
    case .otherMajor: "other-major"
    case .unreadable: "unreadable"
    }
  }

  /// The release part of a version, `1.2.0` of `1.2.0+1f2e…`: what the
  /// messages name, since the build metadata means nothing to a reader.
  package static func release(of version: String) -> String {
    SemanticVersion(parsing: version).map(\.description) ?? version
  }

  /// Why the host refuses a plugin compiled against `plugin`, and what to
  /// do, for a plugin this compatibility does not accept; nil otherwise.
  /// `rebuild` is the command that rebuilds the plugin, made only for a
  /// refusal: it looks for the plugin's package on disk.
  package func refusal(plugin: String, host: String, rebuild: @autoclosure () -> String) -> String? {
    guard !isAccepted else { return nil }
    let rebuild = rebuild()
    let theirs = Self.release(of: plugin)
    let mine = Self.release(of: host)
    switch self {
    case .same, .older:
      return nil
    case .newerMinor:
      let major = SemanticVersion(parsing: host)?.major ?? 0
      return "was compiled against PlugboardKit \(theirs), newer than this host's PlugboardKit "
        + "\(mine): it may call what this host's PlugboardKit lacks — upgrade the host to one with "
        + "PlugboardKit \(theirs) or a later \(major).x, or rebuild the plugin against PlugboardKit "
        + "\(mine): \(rebuild)"
    case .otherMajor:
      let major = SemanticVersion(parsing: host)?.major ?? 0
      return "was compiled against PlugboardKit \(theirs); this host uses PlugboardKit \(mine), "
        + "another major version, which promises no compatibility — rebuild the plugin against "
        + "PlugboardKit \(major).x, such as this host's \(mine): \(rebuild)"
    case .unreadable:
      return "was compiled against PlugboardKit '\(plugin)', which is not a version "
        + "(MAJOR.MINOR.PATCH); this host uses PlugboardKit \(mine) — rebuild the plugin against "
        + "the host's PlugboardKit: \(rebuild)"
    }
  }
}
