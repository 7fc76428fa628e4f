import PlugboardKit

/// What `plugboard check` knows about a deployment beyond its container,
/// for the findings ``GraphAnalysis`` makes: a check in process has no
/// plugins to name, so it uses the defaults.
public struct ValidationHooks {
  /// The finding for a required dependency nothing available serves, when
  /// the deployment explains it better than "nothing registers it" (its
  /// provider's plugin failed or is not loaded, its module is loaded
  /// twice); nil for the plain finding. Given the edge, the chain to its
  /// requester, the note when the requester is not reachable from the
  /// Application, and the registrations the request may have meant.
  public var unserved: Unserved
  /// The edge, the chain to its requester, the note when the requester is
  /// not reachable from the Application, the registrations the request may
  /// have meant; the finding to report instead of "nothing registers it".
  public typealias Unserved = (
    _ edge: DependencyGraph.Edge, _ chain: [ChainStep], _ unreachable: [String], _ suggestions: [Suggestion]
  ) -> Finding?

  /// Sentences for the plain finding, after the profile's notes: plugins
  /// that failed before registering anything may be the missing provider.
  public var missingNotes: () -> [String]
  /// Where a plugin sits in the manifest (`plugins[2]`), for findings that
  /// depend on the order plugins register in; nil when there is no manifest.
  public var position: ((String) -> String)?
  /// Who excluded contributions, for "Left out by …:": the manifest's
  /// path for `plugboard check`.
  public var exclusionSource: String
  /// Where exclusions are changed, for the action: the manifest's
  /// `"contributions"` rules for `plugboard check`.
  public var exclusionRules: String
  /// Sentences naming what would provide `key` if it were loaded (a
  /// plugin the profile leaves out), for the missing-`Application` finding.
  public var providersElsewhere: (ServiceKey) -> [String]
  /// Where a required setting of a plugin was looked for, in order, and
  /// the action that says where to set it; given the plugin, the setting
  /// and the profile.
  public var settingLookup: (_ plugin: String, _ setting: String, _ profile: String?) -> SettingLookup
  /// Text from outside (a configured value) as a finding may print it:
  /// the host strips what a terminal would interpret.
  public var shown: (String) -> String

  /// Where a required setting was looked for, and what to do about it.
  public struct SettingLookup {
    public var places: [String]
    public var action: String

    public init(places: [String], action: String) {
      self.places = places
      self.action = action
    }
  }

  public init(
    unserved: @escaping Unserved = { _, _, _, _ in nil },
    missingNotes: @escaping () -> [String] = { [] }, position: ((String) -> String)? = nil,
    exclusionSource: String = "configuration", exclusionRules: String = "what excludes contributions",
    providersElsewhere: @escaping (ServiceKey) -> [String] = { _ in [] },
    settingLookup: @escaping (String, String, String?) -> SettingLookup = ValidationHooks.inProcessLookup,
    shown: @escaping (String) -> String = { $0 }
  ) {
    self.unserved = unserved
    self.missingNotes = missingNotes
    self.position = position
    self.exclusionSource = exclusionSource
    self.exclusionRules = exclusionRules
    self.providersElsewhere = providersElsewhere
    self.settingLookup = settingLookup
    self.shown = shown
  }

  /// A check in process looked only in the values it was given.
  public static func inProcessLookup(plugin: String, setting: String, profile: String?) -> SettingLookup {
    SettingLookup(
      places: ["the values given to the check"],
      action:
        "Give \"\(setting)\" a value in plugin '\(plugin)''s configuration, or a default in its declaration.")
  }
}
