import PlugboardKit

// Ten objects, one of them `.graph`-scoped and shared by the five leaves:
// G0(G1, G2, G3); G1(L1, L2); G2(L3, L4); G3(L5); each Li(Shared). The
// hand-written floor makes `Shared` once and passes it to every leaf.
final class Shared {}
final class L1 {
  let shared: Shared
  init(_ shared: Shared) { self.shared = shared }
}
final class L2 {
  let shared: Shared
  init(_ shared: Shared) { self.shared = shared }
}
final class L3 {
  let shared: Shared
  init(_ shared: Shared) { self.shared = shared }
}
final class L4 {
  let shared: Shared
  init(_ shared: Shared) { self.shared = shared }
}
final class L5 {
  let shared: Shared
  init(_ shared: Shared) { self.shared = shared }
}
final class G1 {
  let l1: L1
  let l2: L2
  init(_ l1: L1, _ l2: L2) {
    self.l1 = l1
    self.l2 = l2
  }
}
final class G2 {
  let l3: L3
  let l4: L4
  init(_ l3: L3, _ l4: L4) {
    self.l3 = l3
    self.l4 = l4
  }
}
final class G3 {
  let l5: L5
  init(_ l5: L5) { self.l5 = l5 }
}
final class G0 {
  let g1: G1
  let g2: G2
  let g3: G3
  init(_ g1: G1, _ g2: G2, _ g3: G3) {
    self.g1 = g1
    self.g2 = g2
    self.g3 = g3
  }
}

enum GraphShared {
  /// The floor: the same ten objects built by hand, `Shared` made once.
  @inline(never)
  static func direct() -> G0 {
    let shared = Shared()
    return G0(G1(L1(shared), L2(shared)), G2(L3(shared), L4(shared)), G3(L5(shared)))
  }

  /// Everything transient but `Shared`, which is `.graph`: one per
  /// top-level resolve, shared by the leaves.
  static func container() -> Container {
    let c = Container(defaultObjectScope: .transient)
    c.register(Shared.self) { _ in Shared() }.inObjectScope(.graph)
    c.register(L1.self) { r in L1(try r.resolve()) }
    c.register(L2.self) { r in L2(try r.resolve()) }
    c.register(L3.self) { r in L3(try r.resolve()) }
    c.register(L4.self) { r in L4(try r.resolve()) }
    c.register(L5.self) { r in L5(try r.resolve()) }
    c.register(G1.self) { r in G1(try r.resolve(), try r.resolve()) }
    c.register(G2.self) { r in G2(try r.resolve(), try r.resolve()) }
    c.register(G3.self) { r in G3(try r.resolve()) }
    c.register(G0.self) { r in G0(try r.resolve(), try r.resolve(), try r.resolve()) }
    return c
  }
}
