import Testing

@testable import PlugboardKit

/// What the resolve inlined into plugins assumes of PlugboardKit, checked
/// against what Kit now is (Kit/ABI.md, "What is frozen").
@Suite struct FrozenLayoutTests {
  @Test("the scope constants inlined code compares with are ObjectScope's raw values")
  func rawScopesAgreeWithObjectScope() {
    #expect(RawScope.transient == ObjectScope.transient.rawValue)
    #expect(RawScope.graph == ObjectScope.graph.rawValue)
  }

  @Test("a container's hot fields are its own")
  func hotFieldsFollowTheContainer() throws {
    let container = Container(maximumDepth: 17)
    #expect(container.hot.pointee.maximumDepth == 17)
    #expect(container.hot.pointee.published.load(ordering: .acquiring) == nil)
    container.register(Int.self) { _ in 4 }
    #expect(try container.resolve(Int.self) == 4)
    #expect(container.hot.pointee.published.load(ordering: .acquiring) != nil)
  }
}
