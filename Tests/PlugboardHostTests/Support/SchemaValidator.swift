import Foundation

@testable import PlugboardEngine

/// The subset of JSON Schema (2020-12) that Docs/schemas/ uses: `type`,
/// `properties`, `required`, `additionalProperties: false`, `items`,
/// `enum`, `const` and `$ref` (to `#/$defs/X` in the same file or
/// `other.schema.json#/$defs/X` beside it). Anything else in a schema is
/// documentation and ignored. With `additionalProperties: false` on every
/// object, a field the output has and the schema does not document fails
/// as surely as a documented field that is missing.
struct SchemaValidator {
  let folder: String

  /// Every way `document` departs from the schema in `file`, one line each
  /// (`$.reports[0].findings: missing required "action"`); empty when valid.
  func violations(of document: JSONValue, against file: String) throws -> [String] {
    var found: [String] = []
    try check(document, against: try load(file), file: file, at: "$", into: &found)
    return found
  }

  private func load(_ file: String) throws -> JSONValue {
    try JSONParser.parse(String(contentsOfFile: folder + "/" + file, encoding: .utf8))
  }

  private func check(
    _ value: JSONValue, against schema: JSONValue, file: String, at path: String, into found: inout [String]
  ) throws {
    if case .string(let reference)? = schema["$ref"] {
      let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
      let target = parts[0].isEmpty ? file : String(parts[0])
      var resolved = try load(target)
      for component in parts.count > 1 ? parts[1].split(separator: "/") : [] {
        guard let next = resolved[String(component)] else {
          found.append("\(path): unresolvable $ref \(reference)")
          return
        }
        resolved = next
      }
      try check(value, against: resolved, file: target, at: path, into: &found)
      return
    }
    if let constant = schema["const"], constant != value {
      found.append("\(path): expected \(constant), found \(value)")
    }
    if case .array(let allowed)? = schema["enum"], !allowed.contains(value) {
      found.append("\(path): \(value) is not one of the documented values")
    }
    if case .string(let type)? = schema["type"], !Self.matches(value, type) {
      found.append("\(path): expected \(type), found \(value.kindDescription)")
      return
    }
    if case .object(let members) = value {
      let properties = schema["properties"]
      if case .array(let required)? = schema["required"] {
        for case .string(let key) in required where value[key] == nil {
          found.append("\(path): missing required \"\(key)\"")
        }
      }
      for member in members {
        if let property = properties?[member.key] {
          try check(member.value, against: property, file: file, at: "\(path).\(member.key)", into: &found)
        } else if schema["additionalProperties"] == .bool(false) {
          found.append("\(path): \"\(member.key)\" is not documented")
        }
      }
    }
    if case .array(let elements) = value, let items = schema["items"] {
      for (index, element) in elements.enumerated() {
        try check(element, against: items, file: file, at: "\(path)[\(index)]", into: &found)
      }
    }
  }

  private static func matches(_ value: JSONValue, _ type: String) -> Bool {
    switch (type, value) {
    case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null):
      true
    case ("number", .number): true
    case ("integer", .number(let text)): Int(text) != nil
    default: false
    }
  }
}

extension JSONValue {
  /// The member `key` of an object; nil for anything else.
  subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.key == key }?.value
  }
}
