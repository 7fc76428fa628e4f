import AppContracts

/// Signs the user in and greets them; a failed sign-in is reported, then
/// rethrown so the app can end with a failure status.
struct LoginScreen: LoginFeature {
  let auth: any AuthService
  let console: any AppConsole
  /// Optional: analytics comes from a third-party plugin a deployment may omit.
  let analytics: (any AnalyticsTracker)?

  func present(username: String, password: String) async throws -> User {
    console.write("Signing in as \(username)…")
    do {
      let user = try await auth.logIn(username: username, password: password)
      analytics?.track("login.succeeded")
      console.write("Welcome, \(user.displayName)! Your session token is in the keychain.")
      return user
    } catch {
      analytics?.track("login.failed")
      console.write("Sign-in failed: \(error)")
      throw error
    }
  }
}
