import PlugboardKit

extension Container {
  /// Resolves every registration of this container it safely can, and
  /// reports each one that fails, with the chain the failure took, as
  /// Koin's `checkModules` does: the check for a graph whose factories are
  /// closures that declare nothing (`{ r in A(b: try r.resolve()) }`, the
  /// shape of every assembly ported from Swinject), which
  /// ``check(profile:requireApplication:configurations:)`` can only warn
  /// about.
  ///
  /// ```swift
  /// @Test func everyRegistrationResolves() async throws {
  ///   let assembler = try Assembler([NetworkAssembly(), AuthAssembly()])
  ///   let report = await assembler.container.checkByResolving()
  ///   #expect(report.isValid, "\(report)")
  /// }
  /// ```
  ///
  /// It runs factories, which is why it is opt-in and separate from
  /// `check`: each registration is resolved in a scope of its own, ended
  /// afterwards (its `.scoped` instances disposed), async ones awaited;
  /// `.container` instances are made in this container and kept, as any
  /// resolution keeps them. So call it on a container made for the test.
  /// A registration that takes runtime arguments is not resolved (nothing
  /// here can choose them); neither is a contribution (its extension
  /// point's `Contributions` resolves it).
  ///
  /// - Parameter profile: the profile whose registrations are resolved;
  ///   `nil` for the active one. Resolution itself follows the container's
  ///   ``activeProfile``.
  public func checkByResolving(profile: String? = nil) async -> ValidationReport {
    await checkByResolving(profile: profile) { _, _ in }
  }

  /// ``checkByResolving(profile:)``, telling `willResolve` each
  /// registration before it is resolved: the host records it where a
  /// supervising process can read it, so that a factory that crashes or
  /// hangs the process is reported with its plugin and registration.
  public func checkByResolving(
    profile: String?, willResolve: (ServiceKey, RegistrationSite) -> Void
  ) async -> ValidationReport {
    let profile = profile ?? activeProfile
    let probes = ResolutionProbes()
    announceRegistrations(asIf: profile, to: probes)
    var findings: [Finding] = []
    for probe in probes.all {
      willResolve(probe.key, probe.site)
      do {
        try await withScope { scope in try await probe.resolve(scope.resolver) }
      } catch let error as ResolutionError {
        findings.append(Self.finding(for: probe, failedWith: error))
      } catch {
        findings.append(Self.finding(for: probe, threw: error))
      }
    }
    return ValidationReport(profile: profile, findings: findings)
  }

  private static func finding(for probe: ResolutionProbes.Probe, failedWith error: ResolutionError) -> Finding
  {
    Finding(
      .error, .resolutionFailed,
      title: "resolving \(probe.key.shortDescription) fails: \(error.summary)",
      explanation: [
        "\(probe.key.shortDescription) (registered at \(probe.site)) was resolved in a scope of its own, "
          + "and the resolution failed."
      ],
      chain: error.chain.map { ChainStep($0) },
      action: error.action)
  }

  private static func finding(for probe: ResolutionProbes.Probe, threw error: any Error) -> Finding {
    Finding(
      .error, .resolutionFailed,
      title: "resolving \(probe.key.shortDescription) fails: its factory threw \(error)",
      explanation: [
        "\(probe.key.shortDescription) (registered at \(probe.site)) was resolved in a scope of its own, "
          + "and its factory, or one it resolved, threw."
      ],
      action: "Make the factory at \(probe.site) succeed with the registrations this container has, or "
        + "resolve what it needs through a registration it declares.")
  }
}

/// The registrations to resolve, each with a typed resolution: a
/// registration tells its service type only to a ``Behavior`` it is
/// announced to.
private final class ResolutionProbes: Behavior, @unchecked Sendable {
  struct Probe {
    let key: ServiceKey
    let site: RegistrationSite
    let resolve: (Container) async throws -> Void
  }

  // Filled while the records are announced, one after the other, then read.
  private(set) var all: [Probe] = []

  func container<Type, Service>(
    _ container: Container, didRegisterType type: Type.Type,
    toService entry: ServiceEntry<Service>, withName name: String?
  ) {
    // Nothing here can choose a registration's runtime arguments.
    guard entry.key.arguments.isEmpty else { return }
    all.append(
      Probe(key: entry.key, site: entry.site) { resolver in
        _ = try await resolver.asyncResolver.resolve(Service.self, name: name)
      })
  }
}
