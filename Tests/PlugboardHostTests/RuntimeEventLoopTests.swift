import Foundation
import PlugboardSupervision
import PlugboardTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The supervised child keeps the runtime's event loop (libdispatch's epoll
/// instance and the eventfd and timerfd it watches) before plugin code
/// runs, and puts back what a plugin closed. It must know which descriptors
/// those are: an anonymous file that the runtime itself closes later (the
/// main queue's eventfd, which `dispatch_main` opens and closes on the main
/// thread while a worker already runs the program) is not one of them,
/// or plugboard blames a plugin for it and puts back over whatever took its
/// number.
@Suite(.blocking) struct RuntimeEventLoopTests {
  /// An event loop made in this process by the C fixture: a loose
  /// eventfd, then an epoll instance watching an eventfd, a timerfd and a
  /// signalfd. Closed again by the caller.
  private struct MadeLoop {
    let loose: Int32
    let epoll: Int32
    let eventfd: Int32
    let timerfd: Int32
    let signalfd: Int32
    var all: [Int32] { [loose, epoll, eventfd, timerfd, signalfd] }

    init() throws {
      let library = try CFixtures.eventLoopFixture.get()
      let handle = try #require(dlopen(library, RTLD_NOW), "\(String(cString: dlerror()))")
      let symbol = try #require(dlsym(handle, "fixture_make_event_loop"))
      typealias Make = @convention(c) (UnsafeMutablePointer<Int32>) -> Int32
      var numbers = [Int32](repeating: -1, count: 5)
      try #require(unsafeBitCast(symbol, to: Make.self)(&numbers) == 0, "\(String(cString: strerror(errno)))")
      (loose, epoll, eventfd, timerfd, signalfd) = (
        numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]
      )
    }
  }

  /// What plugboard keeps in this process, whose copies are closed again.
  private func kept() -> [plugboard_kept_descriptor] {
    var buffer = [plugboard_kept_descriptor](repeating: .init(), count: 64)
    let count = plugboard_keep_runtime_descriptors(&buffer, Int32(buffer.count))
    return Array(buffer.prefix(Int(count)))
  }

  /// The epoll instance and the eventfd and timerfd it watches are kept;
  /// the signalfd (a signal source's, closed when the source is
  /// cancelled) and the eventfd no epoll watches are not.
  @Test func onlyAnEpollInstanceAndTheEventfdsAndTimerfdsItWatchesAreKept() throws {
    let loop = try MadeLoop()
    defer { for fd in loop.all { close(fd) } }
    let kept = kept()
    defer { for descriptor in kept { close(descriptor.copy) } }
    let numbers = Set(kept.map(\.fd))
    #expect(numbers.isSuperset(of: [loop.epoll, loop.eventfd, loop.timerfd]))
    #expect(!numbers.contains(loop.loose))
    #expect(!numbers.contains(loop.signalfd))
  }

  /// A kept descriptor whose number a file of plugin code took is put
  /// back; an intact one is left alone.
  @Test func aReplacedDescriptorIsPutBack() throws {
    let loop = try MadeLoop()
    defer { for fd in loop.all { close(fd) } }
    let kept = kept()
    defer { for descriptor in kept { close(descriptor.copy) } }
    var wake = try #require(kept.first { $0.fd == loop.eventfd })
    #expect(plugboard_restore_runtime_descriptor(&wake) == 0)
    let file = open("/dev/null", O_RDONLY | O_CLOEXEC)
    try #require(dup2(file, loop.eventfd) == loop.eventfd)
    close(file)
    #expect(plugboard_restore_runtime_descriptor(&wake) == 1)
    var target = [CChar](repeating: 0, count: 64)
    #expect(plugboard_descriptor_target(loop.eventfd, &target, Int32(target.count)) == 0)
    #expect(
      String(decoding: target.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        == "anon_inode:[eventfd]")
  }

  /// The main thread held, by a preloaded library, between opening the
  /// main queue's eventfd and closing it until the plugin has been opened:
  /// the interleaving a busy machine made once in hundreds of runs, every
  /// time. The eventfd is not the event loop's: no warning, nothing put
  /// back.
  @Test func theMainQueuesEventfdClosedLateIsNotBlamedOnAPlugin() throws {
    let preload = try CFixtures.lateClosePreload.get()
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([(name: "Healthy", path: BuildProducts.library("Healthy"))])
    let result = try Subprocess.plugboard(
      ["run", "--manifest", manifest], environment: ["LD_PRELOAD": preload, "LATE_CLOSE_AFTER": "libHealthy"])
    #expect(result.exited && result.status == 0)
    #expect(result.stdout == "Healthy is running\n")
    #expect(
      result.stderr
        == "plugboard: run: warning: LD_PRELOAD is set, so code or settings from outside the deployment reach "
        + "plugboard\n")
  }

  /// Healthy deployments run eight at a time beside four threads that
  /// keep both processors busy: no warning about the runtime's descriptors
  /// (nor anything else) in any of them.
  @Test func healthyDeploymentsOnABusyMachineDrawNoWarning() throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([(name: "Healthy", path: BuildProducts.library("Healthy"))])
    let load = ProcessorLoad(threads: 4)
    defer { load.stop() }
    for round in 1...4 {
      let runs = try (1...8).map { _ in try GroupedProcess(["run", "--manifest", manifest]) }
      for run in runs {
        #expect(try run.finish() == .exited(0), "round \(round)")
        #expect(run.stdoutText == "Healthy is running\n", "round \(round)")
        #expect(run.stderrText == "", "round \(round)")
      }
    }
  }
}
