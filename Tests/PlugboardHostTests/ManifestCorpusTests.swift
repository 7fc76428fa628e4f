import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// Every input of the manifest fuzzer's seed corpus, read as the fuzzer
/// reads it (a recipe magnified to its 4 MiB manifest). A slow or crashing
/// input the fuzzer found once is copied into `Tests/Fuzz/manifest-corpus/`
/// (see DEVELOPERS.md), and stays fixed because every `swift test` reads it
/// again, not only the fuzzer's timed runs. Each reading is bounded by
/// processor time, which a busy machine does not stretch (see
/// ``HostileManifestTests``); the suite's time limit only stops one that
/// never ends.
@Suite(.serialized, .blocking, .timeLimit(.minutes(10))) struct ManifestCorpusTests {
  static let corpus = BuildProducts.packageRoot + "/Tests/Fuzz/manifest-corpus"

  static var inputs: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []).sorted()
  }

  @Test func theCorpusHoldsTheInputsThatOnceTimedOut() {
    for name in ["timeout-unknown-top-level-keys.recipe", "big-unknown-plugin-keys.recipe"] {
      #expect(Self.inputs.contains(name), "\(name) is missing from \(Self.corpus)")
    }
  }

  /// What the fuzzer checks of every input, within 30 s of processor
  /// time, far above what a linear reading of 4 MiB takes even
  /// unoptimised (under a second), and below what the slow inputs once
  /// took: a refusal lists at most the limit of problems plus their count,
  /// and every line names the manifest.
  @Test(arguments: inputs)
  func readsEachInputOfTheCorpus(_ name: String) throws {
    let input = try #require(FileManager.default.contents(atPath: Self.corpus + "/" + name))
    let bytes = ManifestRecipe(Array(input))?.magnified().text ?? Array(input)
    let (result, spent) = ProcessorTime.measure { ManifestReader.decode(bytes, path: "/fuzz/plugins.json") }
    #expect(spent < .seconds(30), "reading \(name) took \(spent) of processor time")
    switch result {
    case .success(let manifest):
      #expect(Set(manifest.plugins.map(\.name)).count == manifest.plugins.count)
    case .failure(let error):
      let lines = error.lines
      #expect(!lines.isEmpty)
      #expect(lines.count <= ManifestDecoder.reportedProblemLimit + 1)
      #expect(lines.allSatisfy { $0.contains("/fuzz/plugins.json") }, "\(lines.prefix(3))")
    }
  }
}
