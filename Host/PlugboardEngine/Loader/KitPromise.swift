import PlugboardKit

/// Whether a PlugboardKit symbol a plugin needs is one this host's
/// PlugboardKit promised to keep: it belongs to a declaration of the
/// released ABI baseline (``KitBaselineSymbols``), and the host's Kit is a
/// release of the same major version, which may only add to it (Kit/ABI.md).
///
/// A plugin that cannot be loaded for lack of such a symbol is not newer
/// than the host: the host's Kit removed or changed what it promised, which
/// `Scripts/check-kit-abi` exists to catch before a release. Any other
/// missing Kit symbol is one a later release added, which a plugin built
/// against that release calls.
enum KitPromise {
  /// The release whose ABI the host's Kit promised to keep and which
  /// declares `mangled`, or nil when it is not such a symbol.
  static func baselineRelease(declaring mangled: String, hostRelease: String = PlugboardBuild.kitRelease)
    -> String?
  {
    guard let host = SemanticVersion(parsing: hostRelease),
      let baseline = SemanticVersion(parsing: KitBaselineSymbols.release), host.major == baseline.major,
      declarations.contains(declaration(of: mangled, in: declarations))
    else { return nil }
    return KitBaselineSymbols.release
  }

  /// The baseline's declarations, read only when a plugin failed to load.
  private static let declarations = Set(KitBaselineSymbols.names.split(separator: "\n").map(String.init))

  /// What a library refers to a declaration by, beside the declaration's
  /// own name (a function, an accessor, a type's name): suffixes the
  /// compiler adds for a dispatch thunk (`Tj`), a method or property
  /// descriptor (`Tq`, `MV`), an async function pointer (`Tu`), a type's
  /// metadata, its accessor and descriptors (`N`, `Ma`, `Mn`, `Mp`, `Mo`,
  /// `Mu`), an enum case (`WC`) and a protocol's requirements (`Tl`).
  private static let suffixes = ["Tj", "Tq", "Tu", "MV", "Ma", "Mn", "Mp", "Mo", "Mu", "WC", "Tl", "N"]

  /// The declaration `mangled` names: itself when the baseline has it,
  /// else the name left once the suffixes above (and a default argument's
  /// `fA<n>_`) are taken off, one at a time.
  static func declaration(of mangled: String, in names: Set<String>) -> String {
    var name = Substring(mangled)
    // A symbol carries at most two of these suffixes (`…FTjTu`), and each
    // step takes one off: a few steps find any declaration there is.
    for _ in 0..<4 {
      if names.contains(String(name)) { break }
      if let suffix = suffixes.first(where: { name.hasSuffix($0) }) {
        name = name.dropLast(suffix.count)
      } else if let function = withoutDefaultArgument(name) {
        name = function
      } else {
        break
      }
    }
    return String(name)
  }

  /// The function whose default argument generator `name` is
  /// (`<function>fA<n>_`), or nil when it is not one.
  private static func withoutDefaultArgument(_ name: Substring) -> Substring? {
    guard name.hasSuffix("_") else { return nil }
    var digits = name.index(before: name.endIndex)
    while digits > name.startIndex, let digit = name[name.index(before: digits)].asciiValue,
      (48...57).contains(digit)
    {
      digits = name.index(before: digits)
    }
    let head = name[..<digits]
    return head.hasSuffix("fA") ? head.dropLast(2) : nil
  }
}
