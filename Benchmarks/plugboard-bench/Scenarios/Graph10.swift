import PlugboardKit

// The ten-class graph `graph10` resolves: S0(S1, S2, S3); S1(S4, S5); S2(S6);
// S3(S7, S8); S4(S9); S5…S9 take nothing.
final class S9 {}
final class S8 {}
final class S7 {}
final class S6 {}
final class S5 {}
final class S4 {
  let s9: S9
  init(_ s9: S9) { self.s9 = s9 }
}
final class S3 {
  let s7: S7
  let s8: S8
  init(_ s7: S7, _ s8: S8) {
    self.s7 = s7
    self.s8 = s8
  }
}
final class S2 {
  let s6: S6
  init(_ s6: S6) { self.s6 = s6 }
}
final class S1 {
  let s4: S4
  let s5: S5
  init(_ s4: S4, _ s5: S5) {
    self.s4 = s4
    self.s5 = s5
  }
}
final class S0 {
  let s1: S1
  let s2: S2
  let s3: S3
  init(_ s1: S1, _ s2: S2, _ s3: S3) {
    self.s1 = s1
    self.s2 = s2
    self.s3 = s3
  }
}

enum Graph10 {
  /// The floor: the same ten objects built by hand.
  @inline(never)
  static func direct() -> S0 {
    S0(S1(S4(S9()), S5()), S2(S6()), S3(S7(), S8()))
  }

  static func container() -> Container {
    let c = Container(defaultObjectScope: .transient)
    register(into: c)
    return c
  }

  static func register(into c: Container) {
    c.register(S9.self) { _ in S9() }
    c.register(S8.self) { _ in S8() }
    c.register(S7.self) { _ in S7() }
    c.register(S6.self) { _ in S6() }
    c.register(S5.self) { _ in S5() }
    c.register(S4.self) { r in S4(try r.resolve()) }
    c.register(S3.self) { r in S3(try r.resolve(), try r.resolve()) }
    c.register(S2.self) { r in S2(try r.resolve()) }
    c.register(S1.self) { r in S1(try r.resolve(), try r.resolve()) }
    c.register(S0.self) { r in S0(try r.resolve(), try r.resolve(), try r.resolve()) }
  }
}
