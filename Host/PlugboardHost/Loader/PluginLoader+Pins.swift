/// The open stage: a pinned plugin through ``PinnedLibrary``, an unpinned
/// one by path unless the manifest requires pins.
extension PluginLoader {
  /// `entry`'s library at `file` (absolute and canonical), opened.
  /// - Throws: at stage `open`: the pin does not match (both digests shown),
  ///   `requirePins` is set and the plugin has no pin, or `dlopen` failed.
  func open(_ entry: PluginEntry, _ file: String, requirePins: Bool) throws(DeploymentProblem)
    -> DynamicLibrary
  {
    guard let pin = entry.sha256 else {
      guard !requirePins else {
        throw .plugin(
          entry.name, file: file, stage: .open,
          "has no pin and the manifest sets \"requirePins\": true — run 'plugboard pin' to pin every "
            + "plugin, or add plugins[\(entry.index)].sha256")
      }
      switch DynamicLibrary.open(file) {
      case .success(let library): return library
      case .failure(let error):
        throw .plugin(
          entry.name, file: file, stage: .open, "could not be loaded: \(error.text)",
          systemMessage: error.text)
      }
    }
    switch PinnedLibrary.open(file, expected: pin) {
    case .success(let library): return library
    case .failure(let failure):
      throw .plugin(
        entry.name, file: file, stage: .open, failure.detail(pin: "plugins[\(entry.index)].sha256"),
        systemMessage: failure.systemMessage)
    }
  }
}
