import Foundation
import PlugboardKit
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// The pieces of a reload that need no process: the sooner of two
/// children's deadlines, the inventory on the pipe, and what changed.
@Suite struct ReloadPartsTests {
  @Test func theSoonerOfTwoWaitsBoundsTheSleep() {
    #expect(ChildDeadlines.sooner(-1, -1) == -1)
    #expect(ChildDeadlines.sooner(-1, 250) == 250)
    #expect(ChildDeadlines.sooner(40, -1) == 40)
    #expect(ChildDeadlines.sooner(40, 250) == 40)
    #expect(ChildDeadlines.sooner(0, 250) == 0)
  }

  @Test func anInventoryItemTravelsAsOneLine() {
    let item = DeploymentInventory.Item(kind: .plugin, name: "Tab\there", identity: "12:3.4")
    let line = ProgressEvent.inventory(item).line
    #expect(line == "Ip\tTab\\there\t12:3.4")
    #expect(ProgressEvent(line: Substring(line)) == .inventory(item))
    #expect(ProgressEvent(line: "Ix\tName\t1") == nil)
    #expect(ProgressEvent(line: "Ip\tName") == nil)
  }

  private func inventory(_ items: [(DeploymentInventory.Item.Kind, String, String)]) -> DeploymentInventory {
    var inventory = DeploymentInventory()
    for (kind, name, identity) in items { inventory.apply(.init(kind: kind, name: name, identity: identity)) }
    return inventory
  }

  @Test func whatChangedNamesPluginsProfileAndConfiguration() {
    let old = inventory([
      (.plugin, "Kept", "1:1.0"), (.plugin, "Rebuilt", "1:1.0"), (.plugin, "Gone", "1:1.0"),
      (.configuration, "Kept", "aaaa"), (.profile, "staging", ""),
    ])
    let new = inventory([
      (.plugin, "Kept", "1:1.0"), (.plugin, "Rebuilt", "2:1.5"), (.plugin, "Added", "1:1.0"),
      (.configuration, "Kept", "bbbb"), (.profile, "", ""),
    ])
    #expect(
      DeploymentInventory.changes(from: old, to: new) == [
        "plugins added: Added", "plugins removed: Gone", "plugins rebuilt: Rebuilt",
        "profile: staging → none",
        "configuration changed: Kept",
      ])
    #expect(DeploymentInventory.changes(from: old, to: old) == [])
    #expect(
      DeploymentInventory.changes(from: DeploymentInventory(), to: new) == ["what changed is not known"])
  }

  @Test func aConfigurationsIdentityTellsKindsAndValuesApart() {
    func identity(_ values: [String: SettingValue]) -> String {
      DeploymentInventory.configurationIdentity(of: values.mapValues { ConfiguredValue($0) })
    }
    let timeout = identity(["timeout": .number("30"), "host": .string("a")])
    #expect(timeout == identity(["host": .string("a"), "timeout": .number("30")]))
    #expect(timeout.count == 16)
    #expect(timeout != identity(["timeout": .string("30"), "host": .string("a")]))
    #expect(timeout != identity(["timeout": .text("30"), "host": .string("a")]))
    #expect(timeout != identity(["timeout": .number("31"), "host": .string("a")]))
    #expect(identity(["on": .bool(true)]) != identity(["on": .bool(false)]))
    #expect(identity(["on": .bool(true)]) != identity(["on": .string("true")]))
  }
}

/// Each transition of a reload's state (Docs/operating.md, "Reloading"),
/// and the events that do not move it.
@Suite struct ReloadStateTests {
  typealias State = ReloadState

  @Test func theNewDeploymentReadyTakesOver() {
    #expect(State.bringingUpBeside.after(.newReady(at: 7)) == .switching(since: 7))
  }

  @Test func theNewDeploymentEndingBeforeItIsReadyFailsTheReload() {
    #expect(State.bringingUpBeside.after(.ended(.new)) == .servingOld)
  }

  @Test func theOldDeploymentEndingBeforeTheSwitchEndsTheService() {
    #expect(State.bringingUpBeside.after(.ended(.old)) == .stopping(deployment: .old))
  }

  @Test func aStopRequestBeforeTheSwitchStopsBothAsTheOldOne() {
    #expect(State.bringingUpBeside.after(.stopRequested) == .stopping(deployment: .old))
  }

  @Test func theOldDeploymentEndingAfterTheSwitchEndsTheReload() {
    #expect(State.switching(since: 7).after(.ended(.old)) == .servingNew(since: 7))
  }

  @Test func theNewDeploymentEndingAfterTheSwitchEndsTheService() {
    #expect(State.switching(since: 7).after(.ended(.new)) == .stopping(deployment: .new))
  }

  @Test func nothingElseMovesIt() {
    #expect(State.switching(since: 7).after(.stopRequested) == .switching(since: 7))
    #expect(State.switching(since: 7).after(.newReady(at: 9)) == .switching(since: 7))
    for end in [
      State.servingOld, .servingNew(since: 7), .stopping(deployment: .old), .stopping(deployment: .new),
    ] {
      for event in [State.Event.newReady(at: 9), .ended(.old), .ended(.new), .stopRequested] {
        #expect(end.after(event) == end)
      }
    }
  }

  @Test func theDeploymentIsTheOldOneUntilTheSwitch() {
    #expect(State.bringingUpBeside.deployment == .old)
    #expect(State.servingOld.deployment == .old)
    #expect(State.switching(since: 7).deployment == .new)
    #expect(State.servingNew(since: 7).deployment == .new)
    #expect(State.stopping(deployment: .new).deployment == .new)
  }

  @Test func theReadyLineCarriesTheStopLimit() {
    #expect(ProgressEvent.ready().line == "R")
    #expect(ProgressEvent(line: "R") == .ready())
    let line = ProgressEvent.ready(stopLimit: .milliseconds(4_500)).line
    #expect(ProgressEvent(line: Substring(line)) == .ready(stopLimit: .milliseconds(4_500)))
    #expect(ProgressEvent(line: "Rsoon") == nil)
  }

  @Test func theOldDeploymentsStopLimitIsItsOwnThenTheExitLimit() {
    var watch = StageWatch(timeout: .seconds(10), exitTimeout: .seconds(2))
    #expect(ReloadFollower.oldStopLimit(watch) == .seconds(62))
    watch.stopLimit = .seconds(4)
    #expect(ReloadFollower.oldStopLimit(watch) == .seconds(6))
  }
}

/// What a reload knows of the files mapped: each file of
/// `/proc/self/maps` with its identity, and plugboard's own files replaced
/// on disk since it started.
@Suite struct MappedFilesTests {
  @Test func aLineOfTheMapsIsAFileWithItsIdentity() {
    let files = MappedFiles.parse(
      """
      7f00-7f01 r--p 00000000 fd:01 1234 /opt/plugboard/lib/libPlugboardKit.so
      7f01-7f02 r-xp 00001000 fd:01 1234 /opt/plugboard/lib/libPlugboardKit.so
      7f02-7f03 r--p 00000000 08:12 99 /srv/app/with space.so (deleted)
      7f03-7f04 rw-p 00000000 00:00 0 
      7ffd-7ffe rw-p 00000000 00:00 0 [stack]
      """)
    #expect(
      files == [
        MappedFiles.File(
          path: "/opt/plugboard/lib/libPlugboardKit.so", device: MappedFiles.device(major: 0xfd, minor: 1),
          inode: 1234, deleted: false),
        MappedFiles.File(
          path: "/srv/app/with space.so", device: MappedFiles.device(major: 8, minor: 0x12), inode: 99,
          deleted: true),
      ])
  }

  @Test func thisProcessesExecutableIsOnDisk() throws {
    let executable = HostImage.executablePath()
    let file = try #require(MappedFiles.current().first { $0.path == executable })
    #expect(file.isOnDisk)
  }

  @Test func aFileOfPlugboardsOwnFoldersReplacedIsFound() throws {
    let folder = try TemporaryDirectory()
    let kit = try folder.write("libPlugboardKit.so", "old")
    let other = try TemporaryDirectory()
    let elsewhere = try other.write("libOther.so", "old")
    func mapped(_ path: String) -> MappedFiles.File {
      var status = stat()
      _ = stat(path, &status)
      return MappedFiles.File(
        path: path, device: UInt64(status.st_dev), inode: UInt64(status.st_ino), deleted: false)
    }
    let files = [mapped(kit), mapped(elsewhere)]
    let executable = folder.path + "/plugboard-host"
    #expect(HostImage.replaced(among: files, executable: executable) == nil)
    _ = try other.write("libOther.so.new", "new")
    #expect(rename(elsewhere + ".new", elsewhere) == 0)
    #expect(HostImage.replaced(among: files, executable: executable) == nil)
    _ = try folder.write("libPlugboardKit.so.new", "new")
    #expect(rename(kit + ".new", kit) == 0)
    #expect(HostImage.replaced(among: files, executable: executable) == files[0])
  }
}
