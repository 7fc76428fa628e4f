extension Container {
  /// Registers `serviceType` made by `initializer`, one of whose parameters
  /// is a runtime argument, as SwinjectAutoregistration's
  /// `autoregister(_:argument:initializer:)`:
  ///
  /// ```swift
  /// container.autoregister(Greeter.self, argument: String.self, initializer: Greeter.init)
  /// let greeter = try container.resolve(Greeter.self, argument: "Ada")
  /// ```
  ///
  /// The first parameter of type `Argument` takes the argument; every other
  /// parameter is resolved from the container, as in
  /// ``autoregister(_:name:file:line:initializer:)``, and declared for
  /// `plugboard check`.
  /// - Throws (when resolving): the ``ResolutionError`` of a parameter
  ///   whose service is missing or fails; the initializer's error.
  @discardableResult
  public func autoregister<Service, Argument, each Parameter>(
    _ serviceType: Service.Type,
    name: String? = nil,
    argument: Argument.Type,
    file: String = #fileID,
    line: Int = #line,
    initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
  ) -> ServiceEntry<Service> {
    let entry = register(serviceType, name: name, file: file, line: line) {
      (resolver: Resolver, argument: Argument) in
      var supplied = SuppliedArguments()
      supplied.add(argument)
      return try initializer(repeat try supplied.fill((each Parameter).self, from: resolver))
    }
    var declaring = SuppliedArguments.Declaring(arguments: [Argument.self])
    repeat declaring.declare((each Parameter).self)
    entry.record.declare(declaring.dependencies)
    return entry
  }

  /// ``autoregister(_:name:argument:file:line:initializer:)`` with several
  /// runtime arguments, as SwinjectAutoregistration's `arguments:` form:
  /// `autoregister(Cat.self, arguments: String.self, Int.self, initializer: Cat.init)`,
  /// resolved with `resolve(Cat.self, arguments: "Mimi", 3)`. Each argument
  /// goes to the first parameter of its type not taken yet, so two
  /// arguments of one type fill that type's parameters in order.
  @discardableResult
  public func autoregister<Service, First, each Rest, each Parameter>(
    _ serviceType: Service.Type,
    name: String? = nil,
    arguments first: First.Type,
    _ rest: repeat (each Rest).Type,
    file: String = #fileID,
    line: Int = #line,
    initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
  ) -> ServiceEntry<Service> {
    @Sendable func make(_ resolver: Resolver, _ first: First, _ rest: repeat each Rest) throws
      -> Service
    {
      var supplied = SuppliedArguments()
      supplied.add(first)
      repeat supplied.add(each rest)
      return try initializer(repeat try supplied.fill((each Parameter).self, from: resolver))
    }
    let entry = register(serviceType, name: name, file: file, line: line, factory: make)
    var types: [any Any.Type] = [First.self]
    repeat types.append((each Rest).self)
    var declaring = SuppliedArguments.Declaring(arguments: types)
    repeat declaring.declare((each Parameter).self)
    entry.record.declare(declaring.dependencies)
    return entry
  }
}

/// The runtime arguments of an autoregistered factory, handed out to the
/// initializer's parameters: each to the first parameter of exactly its
/// type that has none yet.
struct SuppliedArguments {
  private var values: [(type: ObjectIdentifier, value: Any)] = []

  mutating func add<Argument>(_ value: Argument) {
    values.append((ObjectIdentifier(Argument.self), value))
  }

  /// The next argument of type `Parameter`, or the parameter resolved from
  /// `resolver` when no argument is left for it.
  mutating func fill<Parameter>(_ type: Parameter.Type, from resolver: Resolver) throws -> Parameter {
    let id = ObjectIdentifier(type)
    if let index = values.firstIndex(where: { $0.type == id }),
      let value = values.remove(at: index).value as? Parameter
    {
      return value
    }
    return try resolver.resolve(type, name: nil)
  }

  /// The dependencies an initializer declares: its parameters less the
  /// ones the arguments fill.
  struct Declaring {
    var arguments: [ObjectIdentifier]
    var dependencies: [DeclaredDependency] = []

    init(arguments: [any Any.Type]) {
      self.arguments = arguments.map { ObjectIdentifier($0) }
    }

    mutating func declare(_ parameter: any Any.Type) {
      if let index = arguments.firstIndex(of: ObjectIdentifier(parameter)) {
        arguments.remove(at: index)
      } else {
        dependencies.append(.of(parameter))
      }
    }
  }
}
