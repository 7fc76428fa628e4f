extension ResolutionError {
  /// One sentence: what went wrong.
  public var summary: String {
    switch kind {
    case .notRegistered:
      return "No registration for \(key)."
    case .cycle(let path):
      return "Dependency cycle: \(path.map(\.shortDescription).joined(separator: " → "))."
    case .factoryFailed(let underlying):
      return "The factory of \(key) threw: \(Self.describe(underlying))"
    case .argumentsMismatch(let passed, let registered):
      let registeredText = registered.map(Self.argumentList).joined(separator: " or ")
      return "\(key.service.name)\(key.name.map { " named \"\($0)\"" } ?? "") is registered "
        + "with arguments \(registeredText), but was resolved with \(Self.argumentList(passed))."
    case .tooDeep(let limit):
      return "The dependency chain grew deeper than \(limit) resolutions while resolving \(key)."
    case .stackExhausted(let reason):
      return "The thread's stack was nearly full \(chain.count) resolutions deep, at \(key), and the "
        + "chain could not continue on a helper thread: \(reason)."
    case .asyncRegistration:
      return "\(key) is registered with an async factory, and was resolved synchronously."
    case .outsideScope(scopeEnded: true):
      return "\(key) is registered .scoped (one instance per scope), and was resolved from a scope "
        + "that has ended; its instances have been disposed."
    case .outsideScope(scopeEnded: false):
      let holder = scopedHolder.map {
        " \($0.shortDescription) is .container: made once for the container's life, it resolves its "
          + "dependencies from the container that registered it, never from a scope."
      }
      return "\(key) is registered .scoped (one instance per scope), and was resolved outside any "
        + "scope.\(holder ?? "")"
    case .mainActorIsolated:
      return "\(key) is isolated to the main actor, and was resolved synchronously from off the main "
        + "actor."
    }
  }

  /// The `.container` link nearest above a `.scoped` one resolved outside
  /// any scope: the usual way to get there (a captive dependency).
  private var scopedHolder: ServiceKey? {
    chain.dropLast().last { $0.scope == .container }?.key
  }

  /// What to do about it.
  public var action: String { action(suggestions: suggestions) }

  /// The action, given the suggestions already computed (they cost a pass
  /// over every registration).
  private func action(suggestions: @autoclosure () -> [Suggestion]) -> String {
    switch kind {
    case .notRegistered:
      return notRegisteredAction(suggestions: suggestions())
    case .cycle:
      return "Break the cycle: let one of these services take its dependency as a Lazy<…> or "
        + "Provider<…>, or set it after construction with initCompleted(resolving:), or move the "
        + "part they share into a new service."
    case .factoryFailed:
      let site = chain.last?.site.map { " registered at \($0)" } ?? ""
      return "Fix the factory\(site); the error above is what it threw."
    case .argumentsMismatch(_, let registered):
      let example = registered.first.map(Self.argumentList) ?? "()"
      return "Pass the arguments the registration expects, in order: \(example)."
    case .tooDeep:
      return "Look for a registration with arguments that resolves itself without end, or raise "
        + "Container.maximumDepth if the chain is really this deep."
    case .stackExhausted(.threadRefused):
      return "Allow the process more threads or address space (ulimit -u, ulimit -v, the cgroup's "
        + "pids.max), resolve from a thread with a larger stack, or make the chain shallower."
    case .stackExhausted(.helpersBusy):
      return "Resolve deep chains from a thread with a larger stack, fewer at a time, or make the "
        + "chain shallower."
    case .asyncRegistration:
      let site = chain.last?.site.map { " (registered at \($0))" } ?? ""
      return "Resolve \(key.service.shortName)\(site) from async code with \(asyncForm), "
        + "where resolver is the AsyncResolver an async factory receives or container.asyncResolver; "
        + "a synchronous factory that needs it must become async too."
    case .outsideScope(scopeEnded: true):
      return "Resolve .scoped services only while their scope lives (before end(), or inside "
        + "withScope's body), and make a new scope for new work: container.makeScope()."
    case .outsideScope(scopeEnded: false):
      let name = key.name.map { ", name: \"\($0)\"" } ?? ""
      let request =
        "try container.withScope { scope in try scope.resolve(\(key.service.metatypeSpelling)\(name)) }"
      let holder = scopedHolder.map { ", or register \($0.shortDescription) .scoped or .transient" }
      return "Resolve it from a scope, \(request)\(holder ?? ""), or register "
        + "\(key.service.shortName) .container if one instance for the whole container is right."
    case .mainActorIsolated:
      let site = chain.last?.site.map { " (registered at \($0))" } ?? ""
      let request = "\(key.service.metatypeSpelling)\(key.name.map { ", name: \"\($0)\"" } ?? "")"
      return "Resolve \(key.service.shortName)\(site) from @MainActor code, where try "
        + "container.resolve(\(request)) needs no await, or from async code with try await "
        + "resolver.resolve(\(request)), which runs its factory on the main actor; a synchronous "
        + "factory that needs it must be registered on: MainActor.self too."
    }
  }

  /// What to do about a key nothing registers: activate the profile that
  /// has it, register the name a profile chose, share a module loaded
  /// twice, declare it once, or register it.
  private func notRegisteredAction(suggestions: @autoclosure () -> [Suggestion]) -> String {
    if registries.contains(where: { !$0.inactive(where: { $0.key.service == key.service }).isEmpty }) {
      return "Activate a profile \(key.service.shortName) is registered for, or register it for "
        + "the active profile too (inProfiles(...) on its registration)."
    }
    if key.name == nil, registries.contains(where: { $0.selections[key.service.id] != nil }) {
      return "Register the chosen name for \(key.service.shortName), or change the profile's "
        + "choice in plugins.json."
    }
    if let copy = suggestions().first(where: { $0.reason == .duplicatedModule }) {
      return "Module \(copy.key.service.moduleName ?? "?") is loaded twice, so its types have two "
        + "identities. Make it a .dynamic library product of its own package, depended on by "
        + "path (.package(path: ...)), so the host and every plugin share one copy."
    }
    if let action = Suggestion.declaredTwiceAction(for: key, among: suggestions()) { return action }
    // Only a report with a "Did you mean" section can point at it.
    let alternative = suggestions().isEmpty ? "" : ", or request one of the registrations suggested above"
    return "Register \(key.service.shortName) in an assembly that is loaded, for example "
      + "container.register(\(key.service.metatypeSpelling)\(key.name.map { ", name: \"\($0)\"" } ?? "")) "
      + "{ r in ... }\(alternative)."
  }

  /// The async request that serves what failed for being async: the
  /// async form of the `Lazy` or `Provider` it was reached through, an
  /// async `resolveAll` for a contribution, else an async `resolve`.
  private var asyncForm: String {
    let spelling = key.service.metatypeSpelling
    let deferring = chain.dropLast().last { ($0.key.service.type as? any DeferringWrapper.Type) != nil }
    if let deferring, let wrapper = deferring.key.service.type as? any DeferringWrapper.Type {
      let (sync, async) = wrapper.kind == .provider ? ("Provider", "AsyncProvider") : ("Lazy", "AsyncLazy")
      return "an \(async)<\(key.service.shortName)> in place of its \(sync) (try await "
        + "resolver.resolve(\(async)<\(key.service.shortName)>.self), read with try await .instance)"
    }
    if key.isContribution {
      return "try await resolver.resolveAll(\(spelling)) (or a Contributions of it resolved with try await)"
    }
    return "try await resolver.resolve(\(spelling)\(key.name.map { ", name: \"\($0)\"" } ?? ""))"
  }

  /// The full report: what went wrong, the chain, suggestions, and the
  /// action line.
  public var description: String {
    var lines = ["error: cannot resolve \(requested)", "", "What went wrong:", "  \(summary)"]
    lines += notes.map { "  \($0)" }
    if !chain.isEmpty {
      lines += ["", "Chain:"]
      lines += Self.chainLines(chain, failing: key, kind: kind)
    }
    let suggestions = self.suggestions
    if !suggestions.isEmpty {
      lines += ["", "Did you mean:"]
      lines += suggestions.map { "  - \($0)" }
    }
    lines += ["", "Action:", "  \(action(suggestions: suggestions))"]
    return lines.joined(separator: "\n")
  }

  /// The chain, one link a line, eliding the middle of very long chains.
  static func chainLines(_ chain: [ChainLink], failing: ServiceKey, kind: Kind) -> [String] {
    let marker: String
    switch kind {
    case .notRegistered: marker = "✗ not registered"
    case .cycle: marker = "✗ cycle closes here"
    case .factoryFailed: marker = "✗ factory threw"
    case .argumentsMismatch: marker = "✗ arguments do not match"
    case .tooDeep: marker = "✗ too deep"
    case .stackExhausted: marker = "✗ out of stack"
    case .asyncRegistration: marker = "✗ async factory, resolved without await"
    case .outsideScope(scopeEnded: true): marker = "✗ scoped, its scope has ended"
    case .outsideScope(scopeEnded: false): marker = "✗ scoped, outside any scope"
    case .mainActorIsolated: marker = "✗ main actor only, resolved off it"
    }
    func line(_ index: Int, _ link: ChainLink) -> String {
      let arrow = index == 0 ? "  " : "  → "
      let isLast = index == chain.count - 1
      let place = link.site.map { "registered at \($0)" } ?? ""
      let tail = isLast ? [place, marker].filter { !$0.isEmpty }.joined(separator: "  ") : place
      return "\(arrow)\(link.key.shortDescription)\(tail.isEmpty ? "" : "  (\(tail))")"
    }
    let keep = 8
    guard chain.count > keep * 2 + 1 else {
      return chain.enumerated().map { line($0.offset, $0.element) }
    }
    let head = chain.prefix(keep).enumerated().map { line($0.offset, $0.element) }
    let tailStart = chain.count - keep
    let tail = chain.suffix(keep).enumerated().map { line(tailStart + $0.offset, $0.element) }
    return head + ["  … \(chain.count - keep * 2) more links …"] + tail
  }

  static func argumentList(_ types: [TypeIdentity]) -> String {
    "(\(types.map(\.shortName).joined(separator: ", ")))"
  }

  static func describe(_ error: any Error) -> String {
    if let resolution = error as? ResolutionError { return resolution.summary }
    let text = String(describing: error)
    return text.isEmpty ? "\(type(of: error))" : text
  }
}
