import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// `--verbose`: every stage of every plugin, with its time, in load order,
/// and a total; the same supervised and `--unsupervised`.
@Suite(.blocking) struct VerboseOutputTests {
  /// `took 1.2 ms` and `took 3.45 s` as `took <time>`: the times vary, the
  /// lines do not.
  static func masked(_ text: String) throws -> String {
    text.replacing(try Regex(#"took [0-9]+\.[0-9]+ m?s"#), with: "took <time>")
  }

  private static let healthyStages = [
    "plugboard: plugin 'Healthy': vet took <time>",
    "plugboard: plugin 'Healthy': open took <time>",
    "plugboard: plugin 'Healthy': find entry took <time>",
    "plugboard: plugin 'Healthy': check versions took <time>",
    "plugboard: plugin 'Healthy': make assemblies took <time>",
    "plugboard: plugin 'Healthy': configure took <time>",
    "plugboard: plugin 'Healthy': assemble took <time>",
    "plugboard: apply profile took <time>",
    "plugboard: plugin 'Healthy': loaded hook took <time>",
  ]

  @Test(arguments: [[], ["--unsupervised"]])
  func listPrintsEveryStageAndTheTotal(extra: [String]) throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([(name: "Healthy", path: BuildProducts.library("Healthy"))])
    let result = try Subprocess.plugboard(["list", "--manifest", manifest, "--verbose"] + extra)
    #expect(result.status == 0)
    #expect(
      try Self.masked(result.stderr)
        == (Self.healthyStages + ["plugboard: bring-up took <time> in total", ""]).joined(separator: "\n"))
  }

  @Test(arguments: [[], ["--unsupervised"]])
  func runAddsValidationTheApplicationAndItsRunningTime(extra: [String]) throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([(name: "Healthy", path: BuildProducts.library("Healthy"))])
    let result = try Subprocess.plugboard(["run", "--manifest", manifest, "--verbose"] + extra)
    #expect(result.status == 0)
    #expect(result.stdout == "Healthy is running\n")
    let expected =
      Self.healthyStages + [
        "plugboard: validate took <time>",
        "plugboard: resolve Application took <time>",
        "plugboard: bring-up took <time> in total",
        "plugboard: application running took <time>",
        "",
      ]
    #expect(try Self.masked(result.stderr) == expected.joined(separator: "\n"))
  }

  @Test func withoutVerboseNothingIsTimed() throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([(name: "Healthy", path: BuildProducts.library("Healthy"))])
    let result = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(result.status == 0)
    #expect(result.stderr == "")
  }

  /// A plugin that fails still shows how far it got.
  @Test func aFailingPluginShowsTheStagesItReached() throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([(name: "Gone", path: folder.path + "/libGone.so")])
    let result = try Subprocess.plugboard(["list", "--manifest", manifest, "--verbose"])
    #expect(result.status == 1)
    #expect(
      try Self.masked(result.stderr).hasPrefix(
        "plugboard: plugin 'Gone': vet took <time>\n"
          + "plugboard: apply profile took <time>\nplugboard: bring-up took <time> in total\n"))
  }

  @Test func stageLinesEndWhenTheNextStageBegins() {
    let start = ContinuousClock.now
    var timeline = StageTimeline(started: start)
    #expect(timeline.begin(.vet, plugin: "A", at: start + .milliseconds(1)) == [])
    #expect(
      timeline.begin(.open, plugin: "A", at: start + .milliseconds(3))
        == ["plugboard: plugin 'A': vet took 2.0 ms"])
    #expect(
      timeline.finish(at: start + .milliseconds(1500))
        == ["plugboard: plugin 'A': open took 1.49 s", "plugboard: bring-up took 1.50 s in total"])
    // Only once: a second end of bring-up adds nothing.
    #expect(timeline.finish(at: start + .seconds(2)) == [])
  }

  @Test func elapsedTimesAreWrittenAsPeopleReadThem() {
    #expect(ElapsedTime.text(.microseconds(40)) == "0.0 ms")
    #expect(ElapsedTime.text(.microseconds(1250)) == "1.2 ms")
    #expect(ElapsedTime.text(.milliseconds(999)) == "999.0 ms")
    #expect(ElapsedTime.text(.milliseconds(1005)) == "1.00 s")
    #expect(ElapsedTime.text(.milliseconds(61_070)) == "61.07 s")
    #expect(ElapsedTime.wholeSeconds(.milliseconds(2900)) == "2 s")
  }
}
