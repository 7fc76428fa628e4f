import GreetingContract

struct EnglishGreeter: Greeter {
  func greeting() -> String { "Hello" }
}
