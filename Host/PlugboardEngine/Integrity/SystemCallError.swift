#if canImport(Glibc)
  import Glibc
#endif

/// A failed system call, as a value: which call, on what, and why
/// ("open /x/libAuth.so: Permission denied").
package struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The call and its object, as the message names them: `open /x/lib.so`.
  package let operation: String
  /// `errno`'s text, or the reason the host refused the result.
  package let reason: String

  /// Captures `errno`'s text; call it right after the failing call.
  init(_ operation: String, code: Int32 = errno) {
    self.init(operation, reason: String(cString: strerror(code)))
  }

  init(_ operation: String, reason: String) {
    self.operation = operation
    self.reason = reason
  }

  package var description: String { "\(operation): \(reason)" }
}
