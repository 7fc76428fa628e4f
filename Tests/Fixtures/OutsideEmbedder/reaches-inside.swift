// Type-checked against the built PlugboardHost module by
// ExternalEmbedderTests: each line names a declaration of the `plugboard`
// executable's that the public API must not expose.
import PlugboardHost

let loader = PluginLoader()
let manifest: Manifest? = nil
let command = Plugboard.self
