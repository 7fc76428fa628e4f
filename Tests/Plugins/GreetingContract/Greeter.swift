/// Test-only: a contract shared the wrong way — as a target of the root
/// package, so each plugin using it carries its own static copy, and the
/// `Greeter` one registers is not the `Greeter` the other asks for.
public protocol Greeter: Sendable {
  func greeting() -> String
}
