import PlugboardCompat
import PlugboardKit
import Testing

/// Pure-style factory modules registered in assemblies, as iOS teams wire
/// a feature: use cases → view-model factory → screen factory → coordinator.
@Suite struct FactoryModuleTests {
  protocol PostsRepository: AnyObject { var posts: [String] { get } }
  final class StubPosts: PostsRepository { let posts = ["Hello", "World"] }

  final class FeedViewModel: FactoryModule {
    struct Dependency { let repository: any PostsRepository }
    let titles: [String]
    init(dependency: Dependency, payload: Void) { titles = dependency.repository.posts }
  }

  final class FeedScreen: FactoryModule {
    struct Dependency { let viewModelFactory: Factory<FeedViewModel> }
    struct Payload { let userID: String }
    let viewModel: FeedViewModel
    let userID: String
    init(dependency: Dependency, payload: Payload) {
      viewModel = dependency.viewModelFactory.create()
      userID = payload.userID
    }
  }

  struct FeedCoordinator {
    let navigation: String
    let screen: FeedScreen
  }

  struct DataAssembly: Assembly {
    func assemble(container: Container) {
      container.register((any PostsRepository).self) { _ in StubPosts() }.dependsOn()
    }
  }

  struct FeedAssembly: Assembly {
    func assemble(container: Container) {
      container.register(Factory<FeedViewModel>.self) { r in
        Factory(dependency: .init(repository: try r.resolve()))
      }
      .inObjectScope(.graph)
      .dependsOn((any PostsRepository).self)

      container.register(Factory<FeedScreen>.self) { r in
        Factory(dependency: .init(viewModelFactory: try r.resolve()))
      }
      .inObjectScope(.graph)
      .dependsOn(Factory<FeedViewModel>.self)

      container.register(FeedCoordinator.self) { r, navigation in
        FeedCoordinator(
          navigation: navigation,
          screen: try r.resolve(Factory<FeedScreen>.self).create(payload: .init(userID: "u1")))
      }
      .inObjectScope(.graph)
      .dependsOn(Factory<FeedScreen>.self)
    }
  }

  @Test func aCoordinatorWithARuntimeArgumentMakesItsScreenThroughFactories() throws {
    let assembler = try Assembler([DataAssembly(), FeedAssembly()])
    let coordinator = try assembler.resolver.resolve(FeedCoordinator.self, argument: "root")
    #expect(coordinator.navigation == "root")
    #expect(coordinator.screen.userID == "u1")
    #expect(coordinator.screen.viewModel.titles == ["Hello", "World"])
  }

  @Test func everyCreateMakesANewInstanceFromTheSameDependencies() throws {
    let assembler = try Assembler([DataAssembly(), FeedAssembly()])
    let factory = try assembler.resolver.resolve(Factory<FeedScreen>.self)
    let first = factory.create(payload: .init(userID: "a"))
    let second = factory.create(payload: .init(userID: "b"))
    #expect(first !== second)
    #expect([first.userID, second.userID] == ["a", "b"])
  }

  @Test func theFactoriesDeclareTheirDependenciesForCheck() throws {
    let assembler = try Assembler([DataAssembly(), FeedAssembly()])
    let infos = assembler.resolver.registrations
    let screen = try #require(infos.first { $0.key == ServiceKey(Factory<FeedScreen>.self) })
    #expect(screen.dependencies == [ServiceKey(Factory<FeedViewModel>.self)])
    let viewModel = try #require(infos.first { $0.key == ServiceKey(Factory<FeedViewModel>.self) })
    #expect(viewModel.dependencies == [ServiceKey((any PostsRepository).self)])
  }

  @Test func aMissingDependencyOfAFactoryReportsTheChain() throws {
    let assembler = try Assembler([FeedAssembly()])
    let error = #expect(throws: ResolutionError.self) {
      try assembler.resolver.resolve(FeedCoordinator.self, argument: "root")
    }
    let report = error?.description ?? ""
    #expect(report.contains("No registration for PlugboardKitTests.FactoryModuleTests.PostsRepository."))
    #expect(
      report.contains(
        """
          → Factory<PlugboardKitTests.FactoryModuleTests.FeedScreen>  \
        (registered at PlugboardKitTests/FactoryModuleTests.swift:47)
          → Factory<PlugboardKitTests.FactoryModuleTests.FeedViewModel>  \
        (registered at PlugboardKitTests/FactoryModuleTests.swift:41)
          → PostsRepository  (✗ not registered)
        """))
  }
}
