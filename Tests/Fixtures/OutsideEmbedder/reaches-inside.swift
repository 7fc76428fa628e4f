// Type-checked against the built PlugboardEngine module by
// ExternalEmbedderTests: each line names a declaration of the `plugboard`
// executable's that the public API must not expose.
import PlugboardEngine

let loader = PluginLoader()
let manifest: Manifest? = nil
let command = Plugboard.self
