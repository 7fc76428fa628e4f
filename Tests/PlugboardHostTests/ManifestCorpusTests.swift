import Foundation
import Testing

@testable import PlugboardEngine

/// Every input of the manifest fuzzer's seed corpus, read as the fuzzer
/// reads it (a recipe magnified to its 4 MiB manifest). A slow or crashing
/// input the fuzzer found once is copied into `Tests/Fuzz/manifest-corpus/`
/// (see DEVELOPERS.md), and stays fixed because every `swift test` reads it
/// again, not only the fuzzer's timed runs.
@Suite(.serialized) struct ManifestCorpusTests {
  static let corpus = BuildProducts.packageRoot + "/Tests/Fuzz/manifest-corpus"

  static var inputs: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []).sorted()
  }

  @Test func theCorpusHoldsTheInputsThatOnceTimedOut() {
    for name in ["timeout-unknown-top-level-keys.recipe", "big-unknown-plugin-keys.recipe"] {
      #expect(Self.inputs.contains(name), "\(name) is missing from \(Self.corpus)")
    }
  }

  /// What the fuzzer checks of every input, within a bound far above what
  /// a linear reading of 4 MiB takes even unoptimised (under a second): a
  /// refusal lists at most the limit of problems plus their count, and
  /// every line names the manifest.
  @Test(.timeLimit(.minutes(1)), arguments: inputs)
  func readsEachInputOfTheCorpus(_ name: String) throws {
    let input = try #require(FileManager.default.contents(atPath: Self.corpus + "/" + name))
    let bytes = ManifestRecipe(Array(input))?.magnified().text ?? Array(input)
    switch ManifestReader.decode(bytes, path: "/fuzz/plugins.json") {
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
