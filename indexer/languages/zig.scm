; Zig: objects, references and imports for allot (conventions: python.scm's header).
; Types are values: `const Point = struct { ... }` declares the struct `Point`.

; ---------------------------------------------------------------- definitions

(variable_declaration (identifier) @name (struct_declaration)) @definition.struct
(variable_declaration (identifier) @name (union_declaration)) @definition.struct
(variable_declaration (identifier) @name (enum_declaration)) @definition.enum
(variable_declaration (identifier) @name (opaque_declaration)) @definition.struct
(variable_declaration (identifier) @name (error_set_declaration)) @definition.enum
(function_declaration name: (identifier) @name) @definition.function
(test_declaration (string (string_content) @name)) @definition.function
; top-level and container-level `const`/`var` that are not `@import`s
(source_file (variable_declaration (identifier) @name) @definition.constant @_decl (#not-match? @_decl "@import\\("))

; ---------------------------------------------------------------- references

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression object: (_) @qualifier member: (identifier) @name)) @reference.call

; ---------------------------------------------------------------- imports

; `const helper = @import("helper.zig");`
(variable_declaration (identifier) @import.alias
  (builtin_function (builtin_identifier) @_imp (arguments . (string (string_content) @import.module)))
  (#eq? @_imp "@import")) @import
