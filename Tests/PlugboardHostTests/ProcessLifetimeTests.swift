import Testing

@testable import PlugboardEngine

/// What a command keeps is never freed, however the caller lets go of it.
@Suite struct ProcessLifetimeTests {
  private final class Marker {}

  @Test func aKeptValueOutlivesEveryOtherReference() {
    weak var kept: Marker?
    weak var dropped: Marker?
    do {
      let marker = Marker()
      kept = marker
      ProcessLifetime.keep([marker])
      let other = Marker()
      dropped = other
    }
    #expect(kept != nil)
    #expect(dropped == nil)
  }
}
