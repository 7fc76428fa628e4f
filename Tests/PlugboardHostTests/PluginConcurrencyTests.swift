import AppContracts
import Foundation
import PlugboardEngine
import PlugboardKit
import Testing

/// Stress: the sample plugins loaded into this process, their registrations
/// resolved from many threads while other threads make child containers
/// that override a plugin's service and resolve through them. It runs under
/// `swift test --sanitize=thread` in CI too (the suite's name matches the
/// filter there).
@Suite struct PluginConcurrencyTests {
  static let resolvingThreads = 4
  static let resolvesPerThread = 2_000
  static let childThreads = 4
  static let childrenPerThread = 300

  /// The secret the parent's keychain holds, and the one every child's
  /// override answers with.
  static let account = "stress"
  static let parentSecret = "parent-token"
  static let childSecret = "child-token"

  /// A test's stand-in for the Keychain plugin's store.
  final class OverrideStore: SecureStore {
    func set(_ secret: String, for account: String) {}
    func secret(for account: String) -> String? { PluginConcurrencyTests.childSecret }
  }

  /// What the threads saw, gathered under a lock the thread sanitizer
  /// follows (`NSLock`; see ConcurrencyTests for why not `Mutex`).
  final class Observations: @unchecked Sendable {
    // Every property is touched only with `lock` held.
    private let lock = NSLock()
    private var parentStores = Set<ObjectIdentifier>()
    private var secrets: [String: Int] = [:]
    private var failures: [String] = []

    func record(parentStore: ObjectIdentifier? = nil, secret: String?) {
      lock.lock()
      defer { lock.unlock() }
      if let parentStore { parentStores.insert(parentStore) }
      secrets[secret ?? "nil", default: 0] += 1
    }

    func fail(_ failure: String) {
      lock.lock()
      defer { lock.unlock() }
      failures.append(failure)
    }

    var snapshot: (parentStores: Set<ObjectIdentifier>, secrets: [String: Int], failures: [String]) {
      lock.lock()
      defer { lock.unlock() }
      return (parentStores, secrets, failures)
    }
  }

  /// Holds threads at the start until all are running, so they overlap.
  final class StartGate: @unchecked Sendable {
    // `isOpen` is touched only with `condition` locked.
    private let condition = NSCondition()
    private var isOpen = false

    func wait() {
      condition.lock()
      while !isOpen { condition.wait() }
      condition.unlock()
    }

    func open() {
      condition.lock()
      isOpen = true
      condition.broadcast()
      condition.unlock()
    }
  }

  @Test func resolvingWhileChildContainersOverridePluginServices() throws {
    let folder = try TemporaryDirectory()
    let plugins = BuildProducts.livePlugins.map { (name: $0, path: BuildProducts.library($0)) }
    let path = try folder.writeManifest(plugins)
    let manifest = try ManifestReader.read(path: path, origin: .defaultLocation).get()
    let deployment = Deployment.bringUp(
      manifest, loader: PluginLoader(progress: ChildSession()), settings: HostSettings())
    try #require(deployment.problems.isEmpty)
    let parent = deployment.container
    // The Keychain plugin's singleton, made now; Auth's singleton, which
    // depends on it, is left for the threads to race for.
    let parentStore = try parent.resolve((any SecureStore).self)
    parentStore.set(Self.parentSecret, for: Self.account)

    let seen = Observations()
    let gate = StartGate()
    let finished = DispatchGroup()
    func spawn(_ work: @escaping @Sendable () throws -> Void) {
      finished.enter()
      Thread {
        gate.wait()
        do { try work() } catch { seen.fail("\(error)") }
        finished.leave()
      }.start()
    }
    for _ in 0..<Self.resolvingThreads {
      spawn {
        for index in 0..<Self.resolvesPerThread {
          switch index % 4 {
          case 0:
            let store = try parent.resolve((any SecureStore).self)
            seen.record(parentStore: Self.identity(store), secret: store.secret(for: Self.account))
          case 1:
            seen.record(secret: try parent.resolve((any AuthService).self).token(for: Self.account))
          case 2: _ = try parent.resolve((any LoginFeature).self)
          default: _ = try parent.resolve((any Application).self)
          }
        }
      }
    }
    for _ in 0..<Self.childThreads {
      spawn {
        for _ in 0..<Self.childrenPerThread {
          let child = Container(parent: parent)
          let override = OverrideStore()
          child.register((any SecureStore).self) { _ in override }.inObjectScope(.container)
          let store = try child.resolve((any SecureStore).self)
          let again = try child.resolve((any SecureStore).self)
          guard Self.identity(store) == ObjectIdentifier(override),
            Self.identity(again) == ObjectIdentifier(override)
          else {
            throw Failure(description: "a child resolved a store other than its own override")
          }
          seen.record(secret: store.secret(for: Self.account))
          // Auth is a singleton of the parent: made with the parent's
          // keychain even when a child asks for it first.
          seen.record(secret: try child.resolve((any AuthService).self).token(for: Self.account))
          _ = try child.resolveAll((any AppFeature).self)
          _ = try child.resolve((any Application).self)
        }
      }
    }
    gate.open()
    finished.wait()

    let result = seen.snapshot
    #expect(result.failures == [])
    #expect(result.parentStores == [Self.identity(parentStore)])
    // Every child saw its own override, and the parent's services saw the
    // parent's keychain, whoever asked.
    let children = Self.childThreads * Self.childrenPerThread
    #expect(
      result.secrets == [
        Self.parentSecret: Self.resolvingThreads * Self.resolvesPerThread / 2 + children,
        Self.childSecret: children,
      ])
    // The override never reached the parent.
    #expect(Self.identity(try parent.resolve((any SecureStore).self)) == Self.identity(parentStore))
    #expect(try parent.resolve((any AuthService).self).token(for: Self.account) == Self.parentSecret)
  }

  /// The identity of a store (every store here is a class instance).
  static func identity(_ store: any SecureStore) -> ObjectIdentifier { ObjectIdentifier(store as AnyObject) }

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }
}
