import PlugboardEngine
import PlugboardKit

/// `hostile_*`: inputs built to find a step that grows faster than the
/// input. Each scenario is timed at a small
/// and a ten-times larger size; the target is that the cost per unit of
/// input (per byte, per profile, per registration) at the larger size stays
/// within 2× of the smaller's. A linear step meets it by a wide margin, a
/// quadratic one misses it by about 5×.
struct HostileInputScenarios {
  let plan: MeasurementPlan
  let quick: Bool

  func run(only: String?) -> [ResultRow] {
    let scenarios: [(String, () -> [ResultRow])] = [
      ("hostile_escapes", escapes), ("hostile_unknown_key", unknownKey),
      ("hostile_profiles", profiles), ("hostile_misspelt_profiles", misspeltProfiles),
      ("hostile_syntax_error_at_end", syntaxErrorAtEnd),
      ("hostile_unregistered_similar", { missed(similar: true) }),
      ("hostile_unregistered_unrelated", { missed(similar: false) }),
      ("hostile_many_", manyProblems),
    ]
    return scenarios.filter { only == nil || $0.0.hasPrefix(only ?? "") }.flatMap { $0.1() }
  }

  /// The two sizes timed: `quick` runs a tenth of each.
  private func sizes(_ large: Int) -> (small: Int, large: Int) {
    let top = quick ? large / 10 : large
    return (top / 10, top)
  }

  /// One string of escapes between plain letters, `count` bytes of them
  /// (`\u0041`: a control character such as `\n` is refused in a name).
  private func escapes() -> [ResultRow] {
    linear("hostile_escapes", unit: "byte", sizes: sizes(4_000_000)) { count in
      let text =
        #"{"formatVersion": 1, "plugins": [{"name": "x"#
        + String(repeating: #"ab\u0041"#, count: count / 8) + #"", "path": "x.so"}]}"#
      let bytes = Array(text.utf8)
      return { Self.decodes(bytes) }
    }
  }

  /// An unknown top-level key of `count` bytes; its message must quote
  /// only the key's start.
  private func unknownKey() -> [ResultRow] {
    linear("hostile_unknown_key", unit: "byte", sizes: sizes(10_000_000)) { count in
      let text = #"{"formatVersion": 1, "plugins": [], ""# + String(repeating: "k", count: count) + #"": 1}"#
      let bytes = Array(text.utf8)
      return { Self.refused(bytes, longestLine: 400) }
    }
  }

  /// `count` profiles, each used by one plugin.
  private func profiles() -> [ResultRow] {
    linear("hostile_profiles", unit: "profile", sizes: sizes(30_000)) { count in
      let text = Self.profileManifest(count, using: { "p\($0)" })
      let bytes = Array(text.utf8)
      return { Self.decodes(bytes) }
    }
  }

  /// `count` profiles, and `count` plugins each naming one misspelt.
  private func misspeltProfiles() -> [ResultRow] {
    linear("hostile_misspelt_profiles", unit: "profile", sizes: sizes(10_000)) { count in
      let text = Self.profileManifest(count, using: { "q\($0)z" })
      let bytes = Array(text.utf8)
      return { Self.refused(bytes, longestLine: 400) }
    }
  }

  /// A string of `count` bytes on the manifest's one line, then an error.
  private func syntaxErrorAtEnd() -> [ResultRow] {
    linear("hostile_syntax_error_at_end", unit: "byte", sizes: sizes(50_000_000)) { count in
      let text =
        #"{"formatVersion": 1, "plugins": [], "x": ""# + String(repeating: "é", count: count / 2) + #"" x"#
      let bytes = Array(text.utf8)
      return {
        guard
          case .failure(.syntax(_, let error)) = ManifestReader.decode(bytes, path: "/b/p.json")
        else { return false }
        return error.line == 1 && error.column == count / 2 + 45
      }
    }
  }

  /// `hostile_many_*`: one manifest of a quarter of a million problems,
  /// in each place a manifest has keys (a fuzzer's manifest of that size
  /// took 54 s when every problem past the 100 listed still got a
  /// did-you-mean).
  /// Each is held to the cost per byte of `hostile_unknown_key` (one huge
  /// key, one problem) at the same size: within 2×, a problem past the
  /// listed ones costs about what reading its bytes does. BENCHMARKS.md
  /// has the figures of the last quiet runs.
  private func manyProblems() -> [ResultRow] {
    let size = quick ? 400_000 : 4 << 20
    let reference = perByte(
      Array(
        (#"{"formatVersion": 1, "plugins": [], ""# + String(repeating: "k", count: size) + #"": 1}"#).utf8))
    guard let reference else {
      return [.unavailable("hostile_many_", unit: "ns/byte", reason: "error: the reference was not refused")]
    }
    let shapes: [(String, head: String, middle: String, tail: String)] = [
      (
        "hostile_many_unknown_keys", #"{"formatVersion":1,"plugins":[],"#, #""matVersion":0,"klugpins":[],"#,
        #""x":1}"#
      ),
      (
        "hostile_many_unknown_plugin_keys", #"{"formatVersion":1,"plugins":[{"name":"a","path":"a.so","#,
        #""nmae":1,"#, #""x":1}]}"#
      ),
      (
        "hostile_many_unknown_profile_keys", #"{"formatVersion":1,"activeProfile":"p","profiles":{"p":{"#,
        #""servces":{},"#, #""x":1}},"plugins":[]}"#
      ),
      (
        "hostile_many_unknown_config_plugins",
        #"{"formatVersion":1,"activeProfile":"p","profiles":{"p":{"config":{"#, #""Weathe#":{},"#,
        #""x":{}}}},"plugins":[{"name":"Weather","path":"w.so"}]}"#
      ),
      (
        "hostile_many_duplicate_config_keys",
        #"{"formatVersion":1,"plugins":[{"name":"a","path":"a.so","config":{"city":"x","#, #""city":"y","#,
        #""c":1}}]}"#
      ),
    ]
    return shapes.flatMap { scenario, head, middle, tail -> [ResultRow] in
      // `#` in the middle becomes the repetition's number, so names differ.
      let pieces = middle.split(separator: "#", omittingEmptySubsequences: false)
      var members = ""
      var repetition = 0
      while head.utf8.count + members.utf8.count + middle.utf8.count < size {
        members += pieces.joined(separator: String(repetition))
        repetition += 1
      }
      // The same members as the value of one unknown key: the same bytes
      // to parse, one problem. Against it, the ratio is what the problems
      // themselves cost.
      let oneProblem = #"{"formatVersion":1,"plugins":[],"x":{"# + members + #""y":1}}"#
      guard let measured = perByte(Array((head + members + tail).utf8)),
        let parsed = perByte(Array(oneProblem.utf8))
      else {
        return [
          .unavailable(scenario, unit: "ns/byte", reason: "error: the input was not handled as expected")
        ]
      }
      return [
        ResultRow(
          scenario: scenario + "_per_byte", unit: "ns/byte", plugboard: measured, baseline: reference,
          baselineName: "hostile_unknown_key per byte", target: "≤ 2× baseline",
          met: measured.median / reference.median <= 2),
        ResultRow(
          scenario: scenario + "_vs_one_problem", unit: "ns/byte", plugboard: measured, baseline: parsed,
          baselineName: "same members, one problem", target: "≤ 2× baseline",
          met: measured.median / parsed.median <= 2),
      ]
    }
  }

  /// The time to refuse `bytes` per byte, one run per repetition; nil when
  /// it is not refused with a bounded report.
  private func perByte(_ bytes: [UInt8]) -> Measurement? {
    var samples: [Double] = []
    for _ in 0..<max(plan.repetitions, 1) {
      let start = now()
      let ok = Self.refused(bytes, longestLine: 400)
      let elapsed = Double(now() - start)
      guard ok else { return nil }
      samples.append(elapsed / Double(bytes.count))
    }
    return Measurement(samples: samples)
  }

  /// A report of a miss in a container of `count` registrations of a few
  /// types, for a type with a similar name or an unrelated one.
  private func missed(similar: Bool) -> [ResultRow] {
    let name = similar ? "hostile_unregistered_similar" : "hostile_unregistered_unrelated"
    return linear(name, unit: "registration", sizes: sizes(1_000_000)) { count in
      let container = Container(defaultObjectScope: .transient)
      for index in 0..<count {
        switch index % 3 {
        case 0: container.register(Leaf.self, name: "l\(index)") { _ in Leaf() }
        case 1: container.register(Named.self, name: "n\(index)") { _ in NamedService() }
        default: container.register(NamedService.self, name: "s\(index)") { _ in NamedService() }
        }
      }
      // The first resolve builds the registry snapshot; not what is timed.
      _ = try? container.resolve(Leaf.self, name: "l0")
      return {
        do {
          if similar {
            _ = try container.resolve(Leaves.self)
          } else {
            _ = try container.resolve(Missing.self)
          }
          return false
        } catch let error as ResolutionError {
          return error.description.contains("Action:")
        } catch {
          return false
        }
      }
    }
  }

  // MARK: Measuring

  /// Times `make(size)()` at both sizes, one run per repetition, and
  /// reports the larger in ms and the cost per unit against the smaller's.
  private func linear(
    _ scenario: String, unit: String, sizes: (small: Int, large: Int),
    _ make: (Int) -> () -> Bool
  ) -> [ResultRow] {
    var perUnit: [Measurement] = []
    var largest: Measurement?
    for size in [sizes.small, sizes.large] {
      let body = make(size)
      var samples: [Double] = []
      for _ in 0..<max(plan.repetitions, 1) {
        let start = now()
        let ok = body()
        let elapsed = Double(now() - start)
        guard ok else {
          return [.unavailable(scenario, unit: "ms", reason: "error: the input was not handled as expected")]
        }
        samples.append(elapsed)
      }
      perUnit.append(Measurement(samples: samples.map { $0 / Double(size) }))
      largest = Measurement(samples: samples.map { $0 / 1e6 })
    }
    guard let largest, perUnit.count == 2 else { return [] }
    let ratio = perUnit[1].median / perUnit[0].median
    return [
      ResultRow(
        scenario: scenario, unit: "ms", plugboard: largest, baseline: nil, baselineName: "-",
        target: "measured (\(sizes.large) \(unit)s)", met: nil),
      ResultRow(
        scenario: scenario + "_per_\(unit)", unit: "ns/\(unit)", plugboard: perUnit[1], baseline: perUnit[0],
        baselineName: "per \(unit) at \(sizes.small)", target: "≤ 2× baseline", met: ratio <= 2),
    ]
  }

  // MARK: Inputs

  private static func profileManifest(_ count: Int, using name: (Int) -> String) -> String {
    var text = #"{"formatVersion": 1, "activeProfile": "p0", "profiles": {"#
    text += (0..<count).map { #""p\#($0)": {}"# }.joined(separator: ", ")
    text += #"}, "plugins": ["#
    text += (0..<count).map { #"{"name": "n\#($0)", "path": "x.so", "profiles": ["\#(name($0))"]}"# }
      .joined(separator: ", ")
    return text + "]}"
  }

  private static func decodes(_ bytes: [UInt8]) -> Bool {
    if case .success = ManifestReader.decode(bytes, path: "/b/p.json") { return true }
    return false
  }

  /// Refused, with every line of the report shorter than `longestLine`.
  private static func refused(_ bytes: [UInt8], longestLine: Int) -> Bool {
    guard case .failure(let error) = ManifestReader.decode(bytes, path: "/b/p.json") else {
      return false
    }
    return error.lines.allSatisfy { $0.utf8.count < longestLine }
  }
}

/// A type whose name is close to `Leaf`'s, for `hostile_unregistered_similar`.
final class Leaves {}
