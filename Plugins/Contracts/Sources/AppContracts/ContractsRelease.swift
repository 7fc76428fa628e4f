// plugboard-contracts-version: 1.0.0
//
// The release of these contracts, read by PlugboardKit's PlugboardStamp
// build plugin (the directive must be this file's first line). Declaring it
// makes the promise PlugboardKit makes: a plugin compiled against 1.0.0
// keeps loading with every later 1.x, because the module is built with
// library evolution (Package.swift), so a release may add types, methods,
// protocol requirements with a default and enum cases, and insert stored
// properties, without breaking code compiled against an earlier one.
// Raise the minor version for any addition, the major one for any other
// change to a declaration (Docs/plugin-reference.md, "Versioned contracts").
