import PlugboardKit

extension RegistrationInfo {
  /// The scope as reports show it: a custom scope by its own name
  /// (`session`), the built-in ones as PlugboardKit names them.
  var scopeName: String { customScope ?? scope.description }
}
