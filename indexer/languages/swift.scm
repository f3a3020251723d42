; Swift: objects, references and imports for allot (conventions: python.scm's header).
; `class_declaration` covers class, struct, enum, actor and extension: the keyword tells which.

; ---------------------------------------------------------------- definitions

(class_declaration declaration_kind: "class" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "actor" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name) @definition.enum
; `extension User { ... }`: members are named `User.member`
(class_declaration declaration_kind: "extension" name: (user_type (type_identifier) @name)) @scope
(protocol_declaration name: (type_identifier) @name) @definition.interface
(typealias_declaration name: (type_identifier) @name) @definition.type

; No `name:` field: with it, compiling this one pattern cost 0.4-0.5 CPU-s per thread (the query's analysis of the
; grammar's states), the unfielded one 0.05 s. The name is the first identifier child; a later one (a parameter's
; default value, `x: Int = limit`) matches the same node again and the first match of a node wins (extract-code.ts).
(function_declaration (simple_identifier) @name) @definition.function
; initialisers: `init(...)`, `init?(...)`
(function_declaration "init" @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.function
; top-level `let`/`var`
(source_file (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant)

; ---------------------------------------------------------------- references

(call_expression . (simple_identifier) @name) @reference.call
(call_expression . (navigation_expression target: (_) @qualifier suffix: (navigation_suffix suffix: (simple_identifier) @name))) @reference.call

; `class A: B, P`
(inheritance_specifier inherits_from: (user_type (type_identifier) @name)) @reference.inherit

; ---------------------------------------------------------------- imports

; `import Foundation`, `import struct Foo.Bar`: a module
(import_declaration (identifier) @import.module) @import @import.wildcard
