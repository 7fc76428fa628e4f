import PlugboardKit

// Types from Swinject's documentation, so the ported examples read as there.
protocol Animal: AnyObject {
  var name: String { get }
}

final class Cat: Animal {
  let name: String
  let age: Int
  init(name: String, age: Int = 1) {
    self.name = name
    self.age = age
  }
}

final class Dog: Animal {
  let name: String
  init(name: String) { self.name = name }
}

protocol Person {
  func play() -> String
}

final class PetOwner: Person {
  let pet: any Animal
  init(pet: any Animal) { self.pet = pet }
  func play() -> String { "I'm playing with \(pet.name)." }
}

/// A class whose instances can be told apart and counted.
final class Counted: Sendable {
  let serial: Int
  init(serial: Int) { self.serial = serial }
}

/// Two services that share one dependency, for `.graph` semantics.
final class Shared {}

final class Left {
  let shared: Shared
  init(shared: Shared) { self.shared = shared }
}

final class Right {
  let shared: Shared
  init(shared: Shared) { self.shared = shared }
}

final class Both {
  let left: Left
  let right: Right
  init(left: Left, right: Right) {
    self.left = left
    self.right = right
  }
}

struct Failure: Error, CustomStringConvertible {
  let reason: String
  var description: String { reason }
}
