import PlugboardKit

/// Which plugins left out by the active profile would have provided a
/// service, so that a missing dependency can be explained by the profile:
/// "plugin 'AuthMock' is not loaded in profile 'live'".
///
/// The left-out plugins are opened and their assemblies run against a
/// throwaway container that nothing ever resolves from: registering runs
/// no factory, so no application code with side effects runs. A plugin
/// that cannot be opened (it is often not even deployed where its profile
/// is not used) is simply not a candidate.
package struct ExcludedProvider: Sendable, CustomStringConvertible {
  package let plugin: PluginEntry
  /// The registration it would make.
  package let registration: ServiceKey
  /// The profile that left it out.
  package let profile: String

  /// `plugin 'AuthMock' is not loaded in profile 'live' (it loads in 'mock'),
  /// and it registers AuthService`.
  package var description: String {
    let loads = plugin.profiles.map { " (it loads in \($0))" } ?? ""
    return "plugin '\(plugin.name)' is not loaded in profile '\(profile)'\(loads), and it registers "
      + registration.shortDescription
  }

  /// The left-out plugins of `deployment` that register `key`'s service
  /// (under `key`'s name, when it has one), in manifest order.
  package static func providers(
    of key: ServiceKey, in deployment: Deployment
  ) -> [ExcludedProvider] {
    guard let profile = deployment.profile?.name else { return [] }
    let excluded = deployment.excludedByProfile.map { entry in
      PluginEntry(index: entry.index, name: entry.name, path: entry.path, sha256: entry.sha256)
    }
    guard !excluded.isEmpty else { return [] }
    let original = deployment.manifest
    var manifest = Manifest(
      path: original.path, plugins: excluded, requirePins: original.requirePins,
      pluginRoots: original.pluginRoots, stageTimeout: original.stageTimeout)
    manifest.libraryPins = original.libraryPins
    var found: [ExcludedProvider] = []
    for outcome in PluginLoader(progress: deployment.progress).load(manifest) {
      guard case .loaded(let plugin) = outcome,
        let entry = deployment.manifest.plugins.first(where: { $0.index == plugin.entry.index })
      else { continue }
      let scratch = Container()
      for assembly in plugin.bundle.assemblies {
        // A plugin that throws here fails in its own profile, where it is
        // reported; here it only offers fewer candidates.
        try? assembly.assemble(container: scratch)
      }
      let keys = (scratch.registrations + scratch.inactiveRegistrations).map(\.key)
      if let match = keys.first(where: {
        $0.service == key.service && (key.name == nil || $0.name == key.name)
      }) {
        found.append(ExcludedProvider(plugin: entry, registration: match, profile: profile))
      }
    }
    return found
  }
}
