import Dispatch
import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// The supervised child's state has one owner, a ``ChildSession``,
/// handed to whoever reports a stage: what is reported to one goes to its
/// own parent's record and nowhere else, and stages reported from many
/// threads at once are each published. Its phases change only by their
/// transitions, in order: one taken out of order does not compile.
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

  private func phase(of link: ParentLink) throws -> StageWatch.Phase {
    try #require(link.record.read()).phase
  }

  @Test func thePhasesGoInOrderAndReportingOnlyReports() throws {
    let link = try link()
    defer { link.record.destroy() }
    let session = ChildSession(parent: link)
    let bringingUp = session.beginBringUp(divertingPluginOutput: false)
    session.report(.stage(.validate, plugin: nil, file: nil))
    #expect(try phase(of: link) == .bringingUp)
    // Announcing the phases' events changes no phase: only the values do.
    session.report(.reporting)
    session.report(.running)
    #expect(try phase(of: link) == .bringingUp)
    let running = bringingUp.handOverToApplication(of: try InProcessDeployment.make { _ in })
    #expect(try phase(of: link) == .running)
    _ = running.beginReport()
    #expect(try phase(of: link) == .reporting)
  }

  @Test func aBringUpEndedWithoutATransitionBeginsTheReport() throws {
    let link = try link()
    defer { link.record.destroy() }
    let session = ChildSession(parent: link)
    func failBeforeTheReport(_ bringingUp: consuming ChildSession.BringingUp) {
      session.report(.stage(.validate, plugin: nil, file: nil))
    }
    failBeforeTheReport(session.beginBringUp(divertingPluginOutput: false))
    #expect(try phase(of: link) == .reporting)
  }

  @Test func aProgramThatEmbedsTheHostWorksThenHandsOverToItsApplication() throws {
    let link = try link()
    defer { link.record.destroy() }
    let session = ChildSession(parent: link)
    let program = session.beginBringUp(divertingPluginOutput: false).handOverToProgram()
    #expect(try phase(of: link) == .reporting)
    _ = program.handOverToApplication(of: try InProcessDeployment.make { _ in })
    #expect(try phase(of: link) == .running)
  }

  /// Compiles `fixture` (of `Tests/Fixtures/SessionPhases`) against the
  /// built engine, `package` declarations included, up to its ownership
  /// checks; the errors, each as `line: message`.
  private func compile(_ fixture: String) throws -> [String] {
    guard let swiftc = Toolchain.find("swiftc") else {
      Issue.record("no swiftc on PATH")
      return []
    }
    let file = BuildProducts.packageRoot + "/Tests/Fixtures/SessionPhases/" + fixture
    // SwiftPM's package name: the root folder's name, lower-cased, as an identifier.
    let package = String(
      URL(fileURLWithPath: BuildProducts.packageRoot).lastPathComponent.lowercased().map {
        $0.isLetter || $0.isNumber ? $0 : "_"
      })
    let paths = ["Modules", "PlugboardABI.build", "PlugboardSupervision.build", "PlugboardLaunch.build"]
      .flatMap { ["-I", BuildProducts.directory + "/" + $0] }
    let result = try Subprocess.run(
      swiftc,
      ["-emit-sil", "-o", "/dev/null", "-swift-version", "6", "-package-name", package]
        + paths + ["-I", BuildProducts.directory + "/PlugboardLoaderModel.build", file])
    return result.stderr.split(separator: "\n").filter { $0.hasPrefix(file + ":") }.compactMap { line in
      let fields = line.dropFirst(file.count + 1).split(separator: ":", maxSplits: 1)
      let message = line.split(separator: "error: ", maxSplits: 1).dropFirst().first
      return message.map { "\(fields[0]): \($0)" }
    }
  }

  @Test(.blocking) func aTransitionOutOfOrderDoesNotCompile() throws {
    #expect(try compile("in-order.swift") == [])
    #expect(
      try compile("out-of-order.swift") == [
        "8: value of type 'ChildSession.Reporting' has no member 'handOverToApplication'",
        "12: value of type 'ChildSession.ApplicationRunning' has no member 'handOverToProgram'",
        "16: 'ChildSession.ApplicationRunning' initializer is inaccessible due to 'fileprivate' protection level",
      ])
    #expect(
      try compile("used-up.swift") == [
        "6: 'bringingUp' consumed more than once", "11: 'bringingUp' consumed more than once",
        "16: 'bringingUp' is borrowed and cannot be consumed", "20: 'bringingUp' consumed more than once",
      ])
  }
}
