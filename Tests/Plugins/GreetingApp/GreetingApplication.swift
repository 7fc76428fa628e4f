import GreetingContract
import PlugboardKit

struct GreetingApplication: Application {
  let greeter: any Greeter

  func run(arguments: [String]) async throws -> Int32 {
    print(greeter.greeting())
    return 0
  }
}
