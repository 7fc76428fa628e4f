import Foundation
import PlugboardDigest
import PlugboardKit

@testable import PlugboardCLI
@testable import PlugboardEngine

/// Two versions of a tiny shared contracts module and three plugins using
/// it (sources in `Tests/Fixtures/Weather/`), compiled with the toolchain's
/// `swiftc` as SwiftPM would link them: each library a `.so` with the run
/// path `$ORIGIN` and the toolchain's folder. Built once into a scratch
/// folder beside this build's products named by a hash of the sources and
/// of PlugboardKit's, so later runs reuse it (about a second to build).
///
/// - `v1/`, `v2/`: `libWeatherContracts.so` and its module; 2 adds the
///   protocol `WeatherAlerts`.
/// - `libToday.so` (against 1; registers the `Application`),
///   `libTomorrow.so` (against 1), `libForecast.so` (against 2, needs
///   `WeatherAlerts`).
enum WeatherBuild {
  typealias Failure = FixtureFailure

  /// The scratch folder holding the built files, or why it could not be built.
  static let folder: Result<String, Failure> = {
    let sources = BuildProducts.packageRoot + "/Tests/Fixtures/Weather/"
    let files = ["WeatherContractsV1", "WeatherContractsV2", "Today", "Tomorrow", "Forecast"]
    var hasher = SHA256()
    for file in files {
      guard let bytes = FileManager.default.contents(atPath: sources + file + ".swift") else {
        return .failure(Failure(description: "cannot read \(sources + file).swift"))
      }
      hasher.update(Array(bytes))
    }
    hasher.update(Array(PlugboardBuild.sourceFingerprint.utf8))
    let folder = URL(
      fileURLWithPath: BuildProducts.directory + "/../../plugboard-tests-weather-"
        + hasher.finalize().hex.prefix(16)
    ).standardizedFileURL.resolvingSymlinksInPath().path
    let products =
      ["v1/libWeatherContracts.so", "v2/libWeatherContracts.so"]
      + ["libToday.so", "libTomorrow.so", "libForecast.so"]
    if products.allSatisfy({ FileManager.default.fileExists(atPath: folder + "/" + $0) }) {
      return .success(folder)
    }
    guard let swiftc = Toolchain.find("swiftc") else {
      return .failure(Failure(description: "no swiftc on PATH"))
    }
    let common = ["-swift-version", "6", "-parse-as-library", "-emit-library"]
    let kit = [
      "-I", BuildProducts.directory + "/Modules", "-I", BuildProducts.directory + "/PlugboardABI.build",
      "-L", BuildProducts.directory, "-lPlugboardKit", "-Xlinker", "-rpath", "-Xlinker", "$ORIGIN",
    ]
    func contracts(_ version: Int) -> [String] {
      let out = "\(folder)/v\(version)"
      return common + [
        "-module-name", "WeatherContracts", "-emit-module", "-emit-module-path",
        out + "/WeatherContracts.swiftmodule", sources + "WeatherContractsV\(version).swift",
        "-o", out + "/libWeatherContracts.so",
      ]
    }
    func plugin(_ name: String, against version: Int) -> [String] {
      let contracts = "\(folder)/v\(version)"
      return common + kit + [
        "-module-name", name, "-I", contracts, "-L", contracts, "-lWeatherContracts",
        sources + name + ".swift", "-o", "\(folder)/lib\(name).so",
      ]
    }
    do {
      try? FileManager.default.removeItem(atPath: folder)
      for version in ["v1", "v2"] {
        try FileManager.default.createDirectory(
          atPath: folder + "/" + version, withIntermediateDirectories: true)
      }
      let steps = [
        contracts(1), contracts(2), plugin("Today", against: 1), plugin("Tomorrow", against: 1),
        plugin("Forecast", against: 2),
      ]
      for arguments in steps {
        let result = try Subprocess.run(swiftc, arguments)
        guard result.exited, result.status == 0 else {
          return .failure(Failure(description: "swiftc failed:\n\(result.stdout)\(result.stderr)"))
        }
      }
      return .success(folder)
    } catch {
      return .failure(Failure(description: "cannot build the weather fixtures: \(error)"))
    }
  }()

  /// A deployment in a fresh folder: the manifest names `plugins` in
  /// order, each in a folder of its own (`today/`, …) holding its library
  /// and, unless `alone`, the `libWeatherContracts.so` it was built against.
  struct Deployment {
    let root: TemporaryDirectory
    let manifest: String

    /// The canonical path of `plugin`'s library, or of its neighbour.
    func library(_ plugin: String) -> String { root.path + "/\(plugin.lowercased())/lib\(plugin).so" }
    func contracts(beside plugin: String) -> String {
      root.path + "/\(plugin.lowercased())/libWeatherContracts.so"
    }
  }

  static func deploy(_ plugins: [String], alone: Set<String> = []) throws -> Deployment {
    let built = try folder.get()
    let root = try TemporaryDirectory()
    for plugin in plugins {
      let place = root.path + "/" + plugin.lowercased()
      try FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: false)
      try FileManager.default.copyItem(atPath: "\(built)/lib\(plugin).so", toPath: "\(place)/lib\(plugin).so")
      guard !alone.contains(plugin) else { continue }
      let version = plugin == "Forecast" ? "v2" : "v1"
      try FileManager.default.copyItem(
        atPath: "\(built)/\(version)/libWeatherContracts.so", toPath: place + "/libWeatherContracts.so")
    }
    let manifest = try root.writeManifest(plugins.map { ($0, "\($0.lowercased())/lib\($0).so") })
    return Deployment(root: root, manifest: manifest)
  }
}
