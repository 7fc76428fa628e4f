#if canImport(Glibc)
  import Glibc
#endif

/// A symbol name as the dynamic loader reports it, read for people: a Swift
/// name demangled by the Swift runtime's own demangler, and the module that
/// should define it; a C name as it is.
struct SwiftSymbol: Equatable {
  /// The name as written in the library.
  let mangled: String
  /// What the Swift runtime demangles it to ("protocol descriptor for
  /// AppContracts.WeatherService"); nil for a C symbol, or when the
  /// demangler is not available.
  let demangled: String?
  /// The module whose library should define it ("AppContracts"; "Swift"
  /// for the standard library, "__C" for a declaration imported from C);
  /// nil for a C symbol or a name whose module cannot be told.
  let module: String?

  private static let prefixes = ["$s", "_$s", "$e", "_$e", "$S", "_$S", "_T0"]
  /// Longer names are shown as they are: the demangler's time grows with them.
  private static let maximumLength = 4096

  init(_ mangled: String) {
    self.mangled = mangled
    guard let prefix = Self.prefixes.first(where: mangled.hasPrefix), mangled.utf8.count <= Self.maximumLength
    else {
      (demangled, module) = (nil, nil)
      return
    }
    let demangled = Self.demangle(mangled)
    self.demangled = demangled
    module = Self.extensionModule(demangled) ?? Self.contextModule(mangled.dropFirst(prefix.count))
  }

  /// "protocol descriptor for AppContracts.WeatherService
  /// ($s12AppContracts14WeatherServiceMp)", or the C name as it is.
  var description: String {
    demangled.map { "\($0) (\(mangled))" } ?? mangled
  }

  /// The file the module's library is called, as SwiftPM and the
  /// toolchain name them.
  var libraryFileName: String? {
    switch module {
    case nil, "__C": nil
    case "Swift": "libswiftCore.so"
    case .some(let name) where name.hasPrefix("_"): "libswift\(name).so"
    case .some(let name): "lib\(name).so"
    }
  }

  private typealias Demangle =
    @convention(c) (
      UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
    ) -> UnsafeMutablePointer<CChar>?

  /// `swift_demangle` of libswiftCore (loaded with plugboard itself),
  /// looked up by name: it is exported but declared in no header Swift
  /// imports. Given no buffer it returns one from malloc, or NULL for a
  /// name it cannot read.
  private static func demangle(_ name: String) -> String? {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_demangle") else { return nil }
    let function = unsafeBitCast(symbol, to: Demangle.self)
    guard let text = name.withCString({ function($0, strlen($0), nil, nil, 0) }) else { return nil }
    defer { free(text) }
    return String(cString: text)
  }

  /// "(extension in Other):AppContracts.Service.foo()" is defined in Other.
  private static func extensionModule(_ demangled: String?) -> String? {
    guard let demangled, demangled.hasPrefix("(extension in "),
      let colon = demangled.firstIndex(of: ":")
    else { return nil }
    let start = demangled.index(demangled.startIndex, offsetBy: "(extension in ".count)
    guard start < colon else { return nil }
    return String(demangled[start..<demangled.index(before: colon)])
  }

  /// The outermost context of a mangled name is its module: a plain
  /// identifier (`12AppContracts`), `s` for the standard library, `So` or
  /// `SC` for C, `Sc` for a type of `_Concurrency`, or a standard type
  /// (`SS`, `Si`, …) of the standard library.
  private static func contextModule(_ rest: Substring) -> String? {
    let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
    if let length = Int(digits), length > 0, !digits.hasPrefix("0") {
      let name = rest.dropFirst(digits.count).prefix(length)
      return name.count == length ? String(name) : nil
    }
    if rest.hasPrefix("So") || rest.hasPrefix("SC") { return "__C" }
    if rest.hasPrefix("Sc") { return "_Concurrency" }
    if rest.hasPrefix("s") { return "Swift" }
    if rest.hasPrefix("S"), let next = rest.dropFirst().first, next.isASCII, next.isLetter { return "Swift" }
    return nil
  }
}
