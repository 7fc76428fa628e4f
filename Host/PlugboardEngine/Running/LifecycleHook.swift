/// Which of a service's two hooks.
public enum LifecycleHook: String, Sendable {
  case start
  case stop
}
