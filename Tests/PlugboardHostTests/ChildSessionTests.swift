import Dispatch
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// The supervised child's state has one owner, a ``ChildSession``,
/// handed to whoever reports a stage: what is reported to one goes to its
/// own parent's record and nowhere else, and stages reported from many
/// threads at once are each published.
@Suite struct ChildSessionTests {
  private func link() throws -> ParentLink {
    ParentLink(descriptor: -1, record: try #require(StageRecord.create()), quarantine: [:])
  }

  @Test func aStageGoesToTheRecordOfTheSessionItIsReportedTo() throws {
    let first = try link()
    let second = try link()
    defer {
      first.record.destroy()
      second.record.destroy()
    }
    let reporter = ChildSession(parent: first)
    #expect(reporter.isSupervised)
    #expect(!ChildSession(parent: nil).isSupervised)
    reporter.report(.stage(.validate, plugin: nil, file: nil))
    let reported = try #require(first.record.read())
    #expect(reported.sequence == 1 && reported.stage == .validate && reported.phase == .bringingUp)
    #expect(try #require(second.record.read()).sequence == 0)
  }

  @Test func theLoaderTakesTheQuarantineOfItsSession() throws {
    let problem = DeploymentProblem.plugin("Auth", file: "/p/libAuth.so", stage: .open, "crashed before")
    let link = ParentLink(
      descriptor: -1, record: try #require(StageRecord.create()), quarantine: ["Auth": problem])
    defer { link.record.destroy() }
    let loader = PluginLoader(progress: ChildSession(parent: link))
    #expect(loader.progress.quarantine == ["Auth": problem])
    #expect(PluginLoader(progress: ChildSession()).progress.quarantine.isEmpty)
  }

  @Test(.blocking) func stagesReportedFromManyThreadsAreEachPublished() throws {
    let link = try link()
    defer { link.record.destroy() }
    let reporter = ChildSession(parent: link)
    let threads = 8
    let stages = 5_000
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<stages { reporter.report(.stage(.validate, plugin: nil, file: nil)) }
    }
    #expect(try #require(link.record.read()).sequence == UInt64(threads * stages))
  }
}
