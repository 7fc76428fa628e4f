import PlugboardKit

/// A `dlopen` failure of a plugin turned into what went wrong and what to
/// rebuild: an undefined symbol is demangled and attributed to the module
/// that should define it and the file that module was loaded from in this
/// process; a needed library that cannot be found is named with where it
/// was looked for. Other failures keep the dynamic loader's words.
enum LoadFailureExplanation {
  /// The rest of the sentence after "plugin 'X' (file) ", ending with the
  /// loader's own text; `needs` is the plugin's survey, when it could be made.
  static func detail(_ text: String, file: String, needs: PluginNeeds?) -> String {
    let explained =
      undefinedSymbol(text, file: file, needs: needs) ?? missingLibrary(text, needs: needs)
    return explained.map { "could not be loaded: \($0) (dlerror: \(text))" } ?? "could not be loaded: \(text)"
  }

  /// `<file>: undefined symbol: <name>[, version <v>]`.
  private static func undefinedSymbol(_ text: String, file: String, needs: PluginNeeds?) -> String? {
    guard let marker = text.range(of: ": undefined symbol: ") else { return nil }
    let referrer = String(text[..<marker.lowerBound])
    var name = text[marker.upperBound...]
    if let version = name.range(of: ", version ") { name = name[..<version.lowerBound] }
    let symbol = SwiftSymbol(String(name))
    let isPlugin = referrer == file || FilePath.canonical(referrer) == file
    let (who, whom) = isPlugin ? ("it", "the plugin") : ("its dependency \(referrer)", referrer)
    guard let module = symbol.module, let libraryName = symbol.libraryFileName else {
      let kind = symbol.module == "__C" ? "a declaration imported from C, " : "the C symbol "
      return "\(who) needs \(kind)\(symbol.description), which no library loaded in this process defines; "
        + "a C name does not say which library should define it — deploy the library that defines it "
        + "beside the plugin, or rebuild \(whom) against the libraries it is deployed with"
    }
    let lead = "\(who) needs \(symbol.description), which module \(module) should define"
    guard let loaded = LoadedLibraries.file(loadedAs: libraryName) ?? LoadedLibraries.file(named: libraryName)
    else {
      return "\(lead), but no \(libraryName) is loaded in this process — deploy the \(libraryName) "
        + "\(whom) was built against beside it, or rebuild \(whom) against the \(module) deployed with it"
    }
    if case .host = LoadedLibraries.loader(of: loaded), module == "PlugboardKit",
      let release = KitPromise.baselineRelease(declaring: symbol.mangled)
    {
      return brokenPromise(lead: lead, loaded: loaded, baseline: release, whom: whom)
    }
    let (by, action): (String, String)
    switch LoadedLibraries.loader(of: loaded) {
    case .host:
      by = " (loaded by plugboard itself)"
      action =
        "rebuild \(whom) against the \(module) plugboard uses, or rebuild plugboard against the newer one"
    case .plugin(let other):
      by = " (loaded by plugin '\(other)')"
      action =
        "rebuild and redeploy the package that provides \(loaded), or rebuild \(whom) against that \(module)"
    case nil:
      by = ""
      action =
        "rebuild and redeploy the package that provides \(loaded), or rebuild \(whom) against that \(module)"
    }
    var sentence =
      "\(lead), but the \(module) loaded in this process, \(loaded)\(by), does not define it: \(whom) was "
      + "built against a newer \(module) than that file — \(action)"
    if let own = needs?.needs.first(where: { $0.name == libraryName })?.own, own != loaded,
      !PluginNeeds.sameContents(own, loaded)
    {
      sentence +=
        ". The \(libraryName) beside the plugin, \(own), was not used: the dynamic loader matches "
        + "libraries by name, and \(loaded) was loaded first"
    }
    return sentence
  }

  /// A PlugboardKit symbol of the released `baseline` that plugboard's own
  /// PlugboardKit lacks: its Kit removed or changed what its version
  /// promised to keep, so rebuilding plugboard against a newer Kit, what a
  /// plugin newer than the host would call for, is the wrong advice.
  private static func brokenPromise(lead: String, loaded: String, baseline: String, whom: String) -> String {
    let major = SemanticVersion(parsing: baseline)?.major ?? 1
    return "\(lead): PlugboardKit \(baseline) declares it, and every later \(major).x release promises to "
      + "keep it, but the PlugboardKit loaded in this process, \(loaded) (loaded by plugboard itself, "
      + "PlugboardKit \(PlugboardBuild.kitRelease)), does not define it: this plugboard's PlugboardKit broke "
      + "the compatibility promise of its version (Kit/ABI.md), not \(whom) — install a plugboard whose "
      + "PlugboardKit keeps the \(baseline) ABI (Scripts/check-kit-abi compares a PlugboardKit build with it), "
      + "or rebuild \(whom) against the PlugboardKit plugboard uses"
  }

  /// `<name>: cannot open shared object file: <reason>`, for a library the
  /// plugin needs itself.
  private static func missingLibrary(_ text: String, needs: PluginNeeds?) -> String? {
    guard let needs, let marker = text.range(of: ": cannot open shared object file") else { return nil }
    let name = String(text[..<marker.lowerBound])
    guard let need = needs.needs.first(where: { $0.name == name }), need.own == nil else { return nil }
    if name == debugSupportLibrary { return debugBuild(needs) }
    return "it needs \(name), which neither \(needs.runPathDescription) nor the system's folders provide — "
      + needs.copyAdvice(name)
  }

  /// The library only an unoptimised (debug) Swift build links. A host
  /// built for release does not load it, so a debug plugin finds it only
  /// through its run path, in the toolchain it was built with: on a machine
  /// without that toolchain (an installed host, Docs/shipping.md) it is
  /// missing.
  static let debugSupportLibrary = "libswiftSwiftOnoneSupport.so"

  /// Why a plugin cannot load under `requirePins`, known before opening
  /// it: it was built in debug and nothing it may load provides
  /// ``debugSupportLibrary`` (this host, built for release, does not load
  /// it; the system's folders do not hold it; its run path finds it
  /// nowhere, or only in a toolchain outside this host's runtime folder,
  /// where no pin holds it). Nil when it is not so. Told before what a pin would
  /// say, since pinning such a plugin would not make it load.
  static func debugBuildProblem(_ needs: PluginNeeds?) -> String? {
    guard let needs,
      let need = needs.needs.first(where: { $0.name == debugSupportLibrary }),
      need.loaded == nil, !need.inSystemFolder
    else { return nil }
    guard let own = need.own else { return "could not be loaded: " + debugBuild(needs) }
    // Beside the plugin a pin holds it, and in this host's runtime folder
    // it is trusted: the pin's own message applies then.
    let folder = FilePath.directory(of: own)
    if folder == needs.folder || Neighbours.isTrusted(own) { return nil }
    return "could not be loaded: it was built in debug: it needs \(debugSupportLibrary), the Swift runtime's "
      + "library for unoptimised code, which this host, built for release, does not load, and which its run "
      + "path finds only in \(folder), outside this host's runtime folder and the plugin's own, where no pin "
      + "can hold it, so that \"requirePins\" loads it nowhere — build the plugin for release (swift build -c "
      + "release, and name its .build/release library in the manifest), or copy \(debugSupportLibrary) from "
      + "\(folder) into \(needs.folder) and pin it (plugboard pin)"
  }

  /// A debug plugin missing ``debugSupportLibrary``: copying "the library it
  /// was built against" would not say where that is, nor that a release
  /// build needs none.
  private static func debugBuild(_ needs: PluginNeeds) -> String {
    let library = debugSupportLibrary
    return "it was built in debug: it needs \(library), the Swift runtime's library for unoptimised code, "
      + "which this host, built for release, does not load, and which neither \(needs.runPathDescription) "
      + "nor the system's folders provide — build the plugin for release (swift build -c release, and name "
      + "its .build/release library in the manifest), or copy \(library) from the usr/lib/swift/linux "
      + "folder of the toolchain it was built with into \(needs.folder)"
  }
}
