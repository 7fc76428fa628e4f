import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// Libraries plugins share through their folders: an undefined
/// symbol explained, a plugin that would load only because another loaded
/// its neighbour first, and two different copies of one library. Real
/// libraries, built by ``WeatherBuild``, run through `plugboard`.
@Suite(.blocking) struct SharedLibraryTests {
  /// Tomorrow lies alone in its folder, without the libWeatherContracts.so
  /// it needs; Today ships one. Whatever the order, Tomorrow is refused,
  /// and Today loads.
  @Test(arguments: [["Today", "Tomorrow"], ["Tomorrow", "Today"]])
  func aPluginMovedAwayFromItsNeighbourIsRefusedInEitherOrder(order: [String]) throws {
    let deployment = try WeatherBuild.deploy(order, alone: ["Tomorrow"])
    let tomorrow = deployment.library("Tomorrow")
    let folder = FilePath.directory(of: tomorrow)
    let lacking =
      "libWeatherContracts.so, which neither its run path (/opt/swift/usr/lib/swift/linux:$ORIGIN, with "
      + "$ORIGIN being \(folder)) nor the system's folders provide"
    let copy = "copy the libWeatherContracts.so it was built against into \(folder)"
    let expected =
      order.first == "Today"
      ? "open: plugin 'Tomorrow' (\(tomorrow)) needs \(lacking); it would load only because plugin 'Today' "
        + "loaded \(deployment.contracts(beside: "Today")) first, and would fail when loaded alone or before "
        + "it — \(copy)"
      : "open: plugin 'Tomorrow' (\(tomorrow)) could not be loaded: it needs \(lacking) — \(copy) (dlerror: "
        + "libWeatherContracts.so: cannot open shared object file: No such file or directory)"
    let check = try Subprocess.plugboard(["check", "--manifest", deployment.manifest])
    #expect(check.status == 1)
    #expect(check.stdout.contains("2 plugins (1 loaded)"))
    #expect(
      check.stdout.contains("error: plugin 'Tomorrow' failed to load\n\nWhat went wrong:\n  \(expected)\n"))

    let run = try Subprocess.plugboard(["run", "--manifest", deployment.manifest])
    #expect(run.status == 78)  // run: the deployment is broken
    #expect(run.stderrLines.first == "plugboard: \(expected)")
  }

  /// Forecast was built against WeatherContracts 2 and ships it; Today
  /// ships 1 and comes first, so the process has 1 when Forecast needs
  /// WeatherAlerts. The same whether the plugins are pinned (loaded from
  /// verified copies, their neighbours by path) or not.
  @Test(arguments: [false, true])
  func anUndefinedSymbolNamesItsModuleTheFileLoadedAndWhatToRebuild(pinned: Bool) throws {
    let deployment = try WeatherBuild.deploy(["Today", "Forecast"])
    if pinned {
      #expect(try Subprocess.plugboard(["pin", "--manifest", deployment.manifest]).status == 0)
    }
    let forecast = deployment.library("Forecast")
    let (old, new) = (deployment.contracts(beside: "Today"), deployment.contracts(beside: "Forecast"))
    let symbol = "$s16WeatherContracts0A6AlertsMp"
    let dlerror = "\(forecast): undefined symbol: \(symbol)"
    let expected =
      "open: plugin 'Forecast' (\(forecast)) could not be loaded: it needs protocol descriptor for "
      + "WeatherContracts.WeatherAlerts (\(symbol)), which module WeatherContracts should define, but the "
      + "WeatherContracts loaded in this process, \(old) (loaded by plugin 'Today'), does not define it: the "
      + "plugin was built against a newer WeatherContracts than that file — rebuild and redeploy the package "
      + "that provides \(old), or rebuild the plugin against that WeatherContracts. The "
      + "libWeatherContracts.so beside the plugin, \(new), was not used: the dynamic loader matches libraries "
      + "by name, and \(old) was loaded first (dlerror: \(dlerror))"
    let run = try Subprocess.plugboard(["run", "--manifest", deployment.manifest])
    #expect(run.status == 78)  // run: the deployment is broken
    #expect(run.stdout == "")
    #expect(
      run.stderrLines == [
        "plugboard: \(expected)", "plugboard: the deployment has 1 problem; the application was not run",
      ])

    let check = try Subprocess.plugboard(["check", "--manifest", deployment.manifest])
    #expect(check.status == 1)
    #expect(check.stdout.contains("What went wrong:\n  \(expected)\n"))

    // The loader's own words stay the system message.
    let list = try Subprocess.plugboard(["list", "--json", "--manifest", deployment.manifest])
    #expect(list.stdout.contains(#""dlerror" : "\#(dlerror)""#))
  }

  /// In the other order Forecast loads its WeatherContracts 2, and Today,
  /// which ships 1, uses it: it works, and check says which file serves.
  @Test func twoDifferentCopiesOfALibraryAreReported() throws {
    let deployment = try WeatherBuild.deploy(["Forecast", "Today"])
    let today = deployment.library("Today")
    let (own, used) = (deployment.contracts(beside: "Today"), deployment.contracts(beside: "Forecast"))
    let check = try Subprocess.plugboard(["check", "--manifest", deployment.manifest])
    #expect(check.status == 0)
    #expect(
      check.stdout == """
        Checking \(deployment.manifest): 2 plugins (2 loaded), 3 registrations

        warning: plugin 'Today' uses the libWeatherContracts.so of plugin 'Forecast', not its own

        What went wrong:
          plugin 'Today' (\(today)) ships \(own), but plugin 'Forecast' loaded a different libWeatherContracts.so first, \(used), and the dynamic loader matches libraries by name: plugin 'Today' uses \(used), not the copy beside it.
          Plugins load in manifest order: 'Forecast' (plugins[0]) comes before 'Today' (plugins[1]), so which file serves both depends on that order.

        Action:
          Deploy one libWeatherContracts.so for both plugins: the same file, or identical copies, built from the sources both plugins were built against.

        check: 0 errors, 1 warning; the deployment is healthy

        """)

    let run = try Subprocess.plugboard(["run", "--manifest", deployment.manifest])
    #expect(run.stderr == "")
    #expect(run.stdout == "today: sunny\n")
  }

  /// Identical copies of a library in two folders are one library: nothing
  /// to report.
  @Test func identicalCopiesAreNotAConflict() throws {
    let deployment = try WeatherBuild.deploy(["Today", "Forecast"])
    try FileManager.default.removeItem(atPath: deployment.contracts(beside: "Today"))
    try FileManager.default.copyItem(
      atPath: deployment.contracts(beside: "Forecast"), toPath: deployment.contracts(beside: "Today"))
    let check = try Subprocess.plugboard(["check", "--manifest", deployment.manifest])
    #expect(check.status == 0)
    #expect(check.stdout.hasSuffix("check: 0 errors, 0 warnings; the deployment is healthy\n"))
  }

  /// The Swift runtime's demangler, as the explanation uses it.
  @Test func symbolsAreDemangledAndAttributedToTheirModule() {
    let contract = SwiftSymbol("$s12AppContracts14WeatherServiceMp")
    #expect(contract.demangled == "protocol descriptor for AppContracts.WeatherService")
    #expect(contract.module == "AppContracts")
    #expect(contract.libraryFileName == "libAppContracts.so")
    let standard = SwiftSymbol("$sSS5countSivg")
    #expect(standard.demangled == "Swift.String.count.getter : Swift.Int")
    #expect(standard.libraryFileName == "libswiftCore.so")
    let extended = SwiftSymbol("$s12AppContracts7ServiceP5OtherE3fooyyF")
    #expect(extended.module == "Other")
    let c = SwiftSymbol("plugboard_fixture_missing")
    #expect(c.demangled == nil && c.module == nil)
    #expect(c.description == "plugboard_fixture_missing")
  }
}
