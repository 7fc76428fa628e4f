import PlugboardKit

/// A service made from runtime arguments, as `resolve(_:arguments:)` serves.
final class ArgService {
  let name: String
  let age: Int
  init(name: String, age: Int) {
    self.name = name
    self.age = age
  }
}

/// The same with four arguments, to show the cost per argument.
final class WideArgService {
  let name: String
  let age: Int
  let weight: Double
  let indoor: Bool
  init(name: String, age: Int, weight: Double, indoor: Bool) {
    self.name = name
    self.age = age
    self.weight = weight
    self.indoor = indoor
  }
}

enum Arguments {
  static func container() -> Container {
    let c = Container(defaultObjectScope: .transient)
    c.register(ArgService.self) { _, name, age in ArgService(name: name, age: age) }
    c.register(WideArgService.self) { _, name, age, weight, indoor in
      WideArgService(name: name, age: age, weight: weight, indoor: indoor)
    }
    return c
  }

  /// The floor: what a hand-written factory with these parameters does.
  @inline(never)
  static func direct(_ name: String, _ age: Int) -> ArgService {
    ArgService(name: name, age: age)
  }

  @inline(never)
  static func direct(_ name: String, _ age: Int, _ weight: Double, _ indoor: Bool) -> WideArgService {
    WideArgService(name: name, age: age, weight: weight, indoor: indoor)
  }
}
