import PlugboardKit

extension GraphAnalysis {
  /// Decorators whose target nothing registers in the profile checked:
  /// they never run, and the likely cause is a name or a type that differs
  /// from the registration meant, or the target's plugin left out. A
  /// decorator wraps only registrations of its own container, so one
  /// whose target a parent container registers never runs either, and the
  /// finding says so instead.
  public func decoratorsWithoutTarget() -> [Finding] {
    let decoratorNodes = graph.nodes.indices.filter { graph.nodes[$0].key.isDecorator }
    guard !decoratorNodes.isEmpty else { return [] }
    var registered: Set<ServiceKey> = []
    for node in graph.nodes where node.isAvailable && node.key.role == .service && node.ancestorLevel == 0 {
      registered.insert(ServiceKey(service: node.key.service, name: node.key.name))
    }
    return decoratorNodes.compactMap { index -> Finding? in
      let info = graph.nodes[index].info
      guard let decorator = container.decorator(of: info.key), !registered.contains(decorator.target),
        graph.provider(of: decorator.target) == nil
      else { return nil }
      let target = decorator.target.shortDescription
      if registeredInAParent(decorator.target) {
        return decoratorOfAParentsRegistration(decorator, info: info)
      }
      let candidates = suggestions(for: decorator.target).filter { !$0.key.isDecorator }
      return Finding(
        .warning, .decoratorWithoutTarget,
        title: "\(decorator.label) of \(target) decorates nothing: nothing registers \(target)"
          + (profile.map { " in profile '\($0)'" } ?? ""),
        explanation: [
          "The \(decorator.label), declared at \(info.site), wraps the instance of \(target), "
            + "but no registration of \(target) serves requests here, so it never runs."
        ],
        chain: [ChainStep(info, marker: "✗ decorates \(target), which nothing registers")],
        suggestions: candidates.map(\.description),
        action: "Name the registration to decorate with decorate(_:target:), or load the plugin that "
          + "registers \(target); remove the decorator if nothing should be decorated.")
    }
  }

  /// Whether an ancestor container serves `target` in the profile checked.
  private func registeredInAParent(_ target: ServiceKey) -> Bool {
    inventories.dropFirst().contains { inventory in
      inventory.serving.contains { $0.key.service == target.service && $0.key.name == target.name }
    }
  }

  /// The finding for a decorator whose target only a parent container
  /// registers.
  private func decoratorOfAParentsRegistration(_ decorator: DecoratorInfo, info: RegistrationInfo) -> Finding
  {
    let target = decorator.target.shortDescription
    return Finding(
      .warning, .decoratorWithoutTarget,
      title: "\(decorator.label) of \(target) decorates nothing: a parent container registers \(target), "
        + "and a decorator wraps only registrations of its own container",
      explanation: [
        "The \(decorator.label), declared at \(info.site), wraps the instance of \(target), but \(target) "
          + "is registered in a parent container, whose registrations make their instances with the "
          + "parent's decorators only, so it never runs."
      ],
      chain: [ChainStep(info, marker: "✗ decorates \(target), which a parent container registers")],
      action: "Declare the decorator in the container that registers \(target), or register \(target) in "
        + "this container to decorate it here.")
  }

  /// Async decorators of synchronous registrations: synchronous code makes
  /// the instance and cannot await the decorator, so every synchronous
  /// resolve of the target fails.
  public func asyncDecoratorsOfSynchronousRegistrations() -> [Finding] {
    graph.nodes.indices.flatMap { index -> [Finding] in
      let node = graph.nodes[index]
      guard node.isAvailable, !node.info.isAsync, !node.key.isDecorator else { return [] }
      return graph.edges(from: index).compactMap { edge -> Finding? in
        guard edge.key.isDecorator, let to = edge.to, graph.nodes[to].info.isAsync,
          let decorator = container.decorator(of: edge.key)
        else { return nil }
        let target = node.key.shortDescription
        let async = graph.nodes[to].info
        return Finding(
          .error, .asyncDecoratorOfSynchronousRegistration,
          title: "an async \(decorator.label) of the synchronous registration \(target)",
          explanation: [
            "\(target) is registered with a synchronous factory, so synchronous code makes its instance "
              + "and cannot await the async \(decorator.label) declared at \(async.site): resolving "
              + "\(target) fails every time.",
            "\(target) is registered at \(node.info.site).",
          ],
          chain: [
            ChainStep(node.info, marker: "synchronous"),
            ChainStep(async, marker: "✗ async decorator, applied without await"),
          ],
          action: "Make the decorator synchronous ({ r, inner in … }), or register \(target) with an async "
            + "factory and resolve it with try await.")
      }
    }
  }
}
