import PlugboardKit
import PlugboardTestSupport
import Testing

/// Registering after a resolve costs about the same however many
/// registrations came before: a change is published into the snapshot
/// readers use without rebuilding it from every registration.
///
/// Not a speed test (the benchmark's `interleaved_register_resolve_3000`
/// measures that): it compares the cost of late rounds with early ones on
/// the same container, in processor time (which a busy machine does not
/// stretch), each as the fastest of several chunks so that a cache or
/// processor shared with other work does not decide it, against a bound
/// far above noise and far below the 14× the quadratic rebuild measured.
@Suite struct InterleavedRegistrationTests {
  protocol Service: Sendable {}
  struct Implementation: Service {}

  /// Nanoseconds of processor time per round of the fastest `chunks`
  /// chunks of `size` rounds, registering and resolving distinct names
  /// from `start` on.
  static func fastestChunk(
    of container: Container, from start: Int, chunks: Int, size: Int
  ) throws -> Double {
    var fastest = Duration.seconds(3_600)
    for chunk in 0..<chunks {
      let first = start + chunk * size
      let (_, spent) = try ProcessorTime.measure {
        for round in first..<(first + size) {
          container.register(Service.self, name: "s\(round)") { _ in Implementation() }
          _ = try container.resolve(Service.self, name: "s\(round)")
        }
      }
      fastest = min(fastest, spent)
    }
    let (seconds, attoseconds) = fastest.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(size)
  }

  @Test func lateRoundsCostAboutAsMuchAsEarlyOnes() throws {
    let container = Container()
    let early = try Self.fastestChunk(of: container, from: 0, chunks: 5, size: 100)
    _ = try Self.fastestChunk(of: container, from: 500, chunks: 20, size: 100)
    let late = try Self.fastestChunk(of: container, from: 2_500, chunks: 5, size: 100)
    #expect(
      late <= early * 4,
      "a round took \(Int(late)) ns after 2,500 rounds against \(Int(early)) ns in the first 500")
    #expect(try container.resolve(Service.self, name: "s0") is Implementation)
    #expect(container.registrations.count == 3_000)
  }

  /// Replacing, adding and resolving keys of several shapes between
  /// resolutions serves the latest registration of each key, as a
  /// snapshot built from scratch would.
  @Test func changesPublishedInPlaceServeTheLatestRegistration() throws {
    let container = Container()
    for round in 0..<300 {
      container.register(Int.self) { _ in round }
      container.register(Int.self, name: "n\(round % 7)") { _ in round }
      container.register(String.self, name: "a long name beyond fifteen bytes \(round % 5)") { _ in
        "\(round)"
      }
      container.register(Int.self, name: "n") { (_, offset: Int) in round + offset }
      #expect(try container.resolve(Int.self) == round)
      #expect(try container.resolve(Int.self, name: "n\(round % 7)") == round)
      #expect(
        try container.resolve(String.self, name: "a long name beyond fifteen bytes \(round % 5)")
          == "\(round)")
      #expect(try container.resolve(Int.self, name: "n", argument: 1) == round + 1)
    }
    #expect(try container.resolve(Int.self, name: "n3") == 297)
    #expect(container.registrations.count == 1 + 7 + 5 + 1)
    #expect(container.duplicateRegistrations.count == 4 * 300 - 14)
  }
}
