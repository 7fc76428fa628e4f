import PlugboardKit
import Synchronization
import Testing

/// Contributions: many registrations serving one contract, resolved
/// together in a documented order.
@Suite struct ContributionTests {
  protocol Command: Sendable {
    var title: String { get }
  }
  struct Named: Command {
    let title: String
  }
  final class Counted: Command {
    let title: String
    init(_ title: String) { self.title = title }
  }
  struct Failure: Error {}

  struct Menu: Sendable {
    let commands: Contributions<any Command>
  }

  @Test func orderedByDeclaredOrderThenRegistrationOrder() throws {
    let container = Container()
    container.contribute((any Command).self, order: 10) { _ in Named(title: "late 1") }
    container.contribute((any Command).self) { _ in Named(title: "default 1") }
    container.contribute((any Command).self, order: -5) { _ in Named(title: "early") }
    container.contribute((any Command).self, order: 10) { _ in Named(title: "late 2") }
    container.contribute((any Command).self) { _ in Named(title: "default 2") }
    let titles = try container.resolveAll((any Command).self).map(\.title)
    #expect(titles == ["early", "default 1", "default 2", "late 1", "late 2"])
  }

  @Test func keyedFormHasTheNamedOnesAndTheLaterOfAName() throws {
    let container = Container()
    container.contribute((any Command).self, name: "help") { _ in Named(title: "help 1") }
    container.contribute((any Command).self) { _ in Named(title: "anonymous") }
    container.contribute((any Command).self, name: "quit") { _ in Named(title: "quit") }
    container.contribute((any Command).self, name: "help", order: -1) { _ in Named(title: "help 0") }
    let named = try container.resolveAllNamed((any Command).self).mapValues(\.title)
    #expect(named == ["help": "help 1", "quit": "quit"])
    #expect(try container.resolveAll((any Command).self).count == 4)
  }

  @Test func scopesApplyPerContribution() throws {
    let container = Container()
    container.contribute((any Command).self, name: "shared") { _ in Counted("shared") }
      .inObjectScope(.container)
    container.contribute((any Command).self, name: "fresh") { _ in Counted("fresh") }
      .inObjectScope(.transient)
    let first = try container.resolveAll((any Command).self).map { $0 as? Counted }
    let second = try container.resolveAll((any Command).self).map { $0 as? Counted }
    #expect(first.count == 2 && second.count == 2)
    #expect(first[0] === second[0])
    #expect(first[1] !== second[1])
  }

  @Test func plainRegistrationAndContributionsCoexist() throws {
    let container = Container()
    container.register((any Command).self) { _ in Named(title: "plain") }
    container.contribute((any Command).self) { _ in Named(title: "contributed") }
    container.register((any Command).self, name: "help") { _ in Named(title: "plain help") }
    container.contribute((any Command).self, name: "help") { _ in Named(title: "contributed help") }
    #expect(try container.resolve((any Command).self).title == "plain")
    #expect(try container.resolve((any Command).self, name: "help").title == "plain help")
    #expect(try container.resolveAll((any Command).self).map(\.title) == ["contributed", "contributed help"])
    #expect(container.duplicateRegistrations.isEmpty)
  }

  @Test func anEmptyExtensionPointResolvesToNothing() throws {
    let container = Container()
    container.register((any Command).self) { _ in Named(title: "plain") }
    #expect(try container.resolveAll((any Command).self).isEmpty)
    #expect(try container.resolveAllNamed((any Command).self).isEmpty)
    #expect(try container.resolve(Contributions<any Command>.self).isEmpty)
  }

  @Test func theWrapperIsADependency() throws {
    let container = Container()
    container.contribute((any Command).self, name: "b", order: 2) { _ in Named(title: "b") }
    container.contribute((any Command).self, name: "a", order: 1) { _ in Named(title: "a") }
    container.autoregister(Menu.self, initializer: Menu.init)
    let menu = try container.resolve(Menu.self)
    #expect(menu.commands.map(\.title) == ["a", "b"])
    #expect(menu.commands.names == ["a", "b"])
    #expect(menu.commands.named["b"]?.title == "b")
    #expect(try container.resolveIfRegistered(Contributions<any Command>.self)?.count == 2)
  }

  @Test func aChildSeesItsParentsContributionsInOrder() throws {
    let parent = Container()
    parent.contribute((any Command).self, order: 1) { _ in Named(title: "parent 1") }
    let child = Container(parent: parent)
    child.contribute((any Command).self) { _ in Named(title: "child 0") }
    parent.contribute((any Command).self, order: 1) { _ in Named(title: "parent 1 later") }
    #expect(
      try child.resolveAll((any Command).self).map(\.title) == ["child 0", "parent 1", "parent 1 later"])
    #expect(try parent.resolveAll((any Command).self).map(\.title) == ["parent 1", "parent 1 later"])
  }

  @Test func contributionsFollowProfilesAndWithdrawal() throws {
    let container = Container()
    container.attributing(to: "Core") {
      container.contribute((any Command).self) { _ in Named(title: "core") }
    }
    container.attributing(to: "Debug") {
      container.contribute((any Command).self) { _ in Named(title: "debug") }
    }
    container.contribute((any Command).self) { _ in Named(title: "mock only") }.inProfiles("mock")
    #expect(try container.resolveAll((any Command).self).map(\.title) == ["core", "debug"])
    container.activeProfile = "mock"
    #expect(try container.resolveAll((any Command).self).map(\.title) == ["core", "debug", "mock only"])
    container.removeRegistrations(attributedTo: "Debug")
    #expect(try container.resolveAll((any Command).self).map(\.title) == ["core", "mock only"])
  }

  @Test func anExcludedContributionTakesNoPartAndSaysWhy() throws {
    let container = Container()
    container.contribute((any Command).self, name: "help") { _ in Named(title: "help") }
    let trace = container.contribute((any Command).self, name: "trace") { _ in Named(title: "trace") }
    #expect(try container.resolveAll((any Command).self).map(\.title) == ["help", "trace"])
    #expect(container.excludeContribution(trace.key, reason: "excluded by the test"))
    #expect(try container.resolveAll((any Command).self).map(\.title) == ["help"])
    #expect(try container.resolveAllNamed((any Command).self).keys.sorted() == ["help"])
    #expect(!container.registrations.contains { $0.key == trace.key })
    let left = try #require(container.inactiveRegistrations.first { $0.key == trace.key })
    #expect(left.exclusion == "excluded by the test")
    // Only contributions: a plain registration is switched by profiles or
    // selections, never excluded.
    let plain = container.register((any Command).self) { _ in Named(title: "plain") }
    #expect(!container.excludeContribution(plain.key, reason: "no"))
    #expect(try container.resolve((any Command).self).title == "plain")
  }

  /// resolveAll remembers what takes part per registry: every change
  /// after a resolveAll is seen by the next one.
  @Test func whatTakesPartIsSeenAfreshAfterEveryChange() throws {
    let container = Container()
    container.contribute((any Command).self, name: "a") { _ in Named(title: "a") }
    #expect(try container.resolveAll((any Command).self).map(\.title) == ["a"])
    container.register(String.self) { _ in "unrelated" }
    #expect(try container.resolveAll((any Command).self).map(\.title) == ["a"])
    let b = container.contribute((any Command).self, name: "b", order: -1) { _ in Named(title: "b") }
    #expect(try container.resolveAll((any Command).self).map(\.title) == ["b", "a"])
    container.contribute((any Command).self, name: "c") { _ in Named(title: "c") }.inProfiles("mock")
    #expect(try container.resolveAll((any Command).self).map(\.title) == ["b", "a"])
    container.activeProfile = "mock"
    #expect(try container.resolve(Contributions<any Command>.self).map(\.title) == ["b", "a", "c"])
    container.excludeContribution(b.key, reason: "test")
    #expect(try container.resolveAllNamed((any Command).self).keys.sorted() == ["a", "c"])
    container.removeAll()
    #expect(try container.resolveAll((any Command).self).isEmpty)
  }

  @Test func aFailingContributionIsNamedInTheError() throws {
    let container = Container()
    container.contribute((any Command).self, name: "fine") { _ in Named(title: "fine") }
    container.contribute((any Command).self, name: "broken") { _ in throw Failure() }
    let error = try #require(throws: ResolutionError.self) {
      try container.resolveAll((any Command).self)
    }
    #expect(error.underlyingError is Failure)
    #expect(error.key.name == "broken")
    #expect(error.key.isContribution)
    #expect(error.chain.first?.site?.fileID == #fileID)
    #expect(error.description.contains("broken"))
    #expect(throws: ResolutionError.self) { try container.resolve(Contributions<any Command>.self) }
  }

  @Test func concurrentResolveAllSeesOneOrderAndMakesSingletonsOnce() async throws {
    let made = Atomic(0)
    let container = Container()
    for index in 0..<10 {
      let entry = container.contribute((any Command).self, name: "c\(index)", order: index % 3) { _ in
        if index.isMultiple(of: 2) { made.add(1, ordering: .relaxed) }
        return Counted("c\(index)")
      }
      entry.inObjectScope(index.isMultiple(of: 2) ? .container : .transient)
    }
    let expected = [0, 3, 6, 9, 1, 4, 7, 2, 5, 8].map { "c\($0)" }
    let results = await withTaskGroup(of: [String]?.self) { group in
      for _ in 0..<32 {
        group.addTask { try? container.resolveAll((any Command).self).map(\.title) }
      }
      var results: [[String]?] = []
      for await result in group { results.append(result) }
      return results
    }
    #expect(results.count == 32)
    #expect(results.allSatisfy { $0 == expected })
    #expect(made.load(ordering: .relaxed) == 5)
  }

  @Test func excludingManyContributionsInOneCallLeavesTheRightOnesActive() throws {
    let container = Container()
    for index in 0..<10 {
      container.contribute((any Command).self, name: "c\(index)") { _ in Named(title: "c\(index)") }
    }
    container.register((any Command).self) { _ in Named(title: "plain") }
    let keys = container.registrations.map(\.key)
    let names: Set<String> = ["c1", "c2", "c5", "c7", "c8"]
    let excluded = keys.filter { $0.contributionName.map(names.contains) == true }
    var reasons = Dictionary(uniqueKeysWithValues: excluded.map { ($0, "excluded by the test") })
    let plain = try #require(keys.first { !$0.isContribution })
    reasons[plain] = "not a contribution"
    #expect(container.excludeContributions(reasons) == Set(excluded))
    #expect(try container.resolveAll((any Command).self).map(\.title) == ["c0", "c3", "c4", "c6", "c9"])
    #expect(container.inactiveRegistrations.map(\.key.contributionName) == ["c1", "c2", "c5", "c7", "c8"])
    #expect(Set(container.inactiveRegistrations.compactMap(\.exclusion)) == ["excluded by the test"])
    #expect(try container.resolve((any Command).self).title == "plain")
  }
}
