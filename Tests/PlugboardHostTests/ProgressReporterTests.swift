import Dispatch
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// The supervised child's state has one owner, a ``ProgressReporter``,
/// handed to whoever reports a stage: what is reported to one goes to its
/// own parent's record and nowhere else, and stages reported from many
/// threads at once are each published.
@Suite struct ProgressReporterTests {
  private func link() throws -> ParentLink {
    ParentLink(descriptor: -1, record: try #require(StageRecord.create()), quarantine: [:])
  }

  @Test func aStageGoesToTheRecordOfTheReporterItIsReportedTo() throws {
    let first = try link()
    let second = try link()
    defer {
      first.record.destroy()
      second.record.destroy()
    }
    let reporter = ProgressReporter(parent: first)
    #expect(reporter.isSupervised)
    #expect(!ProgressReporter(parent: nil).isSupervised)
    reporter.report(.stage(.validate, plugin: nil, file: nil))
    let reported = try #require(first.record.read())
    #expect(reported.sequence == 1 && reported.stage == .validate && reported.phase == .bringingUp)
    #expect(try #require(second.record.read()).sequence == 0)
  }

  @Test func theLoaderTakesTheQuarantineOfItsReporter() throws {
    let problem = DeploymentProblem.plugin("Auth", file: "/p/libAuth.so", stage: .open, "crashed before")
    let link = ParentLink(
      descriptor: -1, record: try #require(StageRecord.create()), quarantine: ["Auth": problem])
    defer { link.record.destroy() }
    let loader = PluginLoader(progress: ProgressReporter(parent: link))
    #expect(loader.progress.quarantine == ["Auth": problem])
    #expect(PluginLoader(progress: ProgressReporter()).progress.quarantine.isEmpty)
  }

  @Test(.blocking) func stagesReportedFromManyThreadsAreEachPublished() throws {
    let link = try link()
    defer { link.record.destroy() }
    let reporter = ProgressReporter(parent: link)
    let threads = 8
    let stages = 5_000
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<stages { reporter.report(.stage(.validate, plugin: nil, file: nil)) }
    }
    #expect(try #require(link.record.read()).sequence == UInt64(threads * stages))
  }
}
