; Kotlin: objects, references and imports for allot (conventions: python.scm's header).
; The grammar has no fields: patterns match children by type.

; ---------------------------------------------------------------- definitions

; `interface` and `enum class` are class declarations with a keyword or an enum body (the more specific kind wins)
(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration (type_identifier) @name (enum_class_body)) @definition.enum
(class_declaration (type_identifier) @name) @definition.class
(object_declaration (type_identifier) @name) @definition.class
(companion_object (type_identifier) @name) @definition.class
; an unnamed `companion object` is Kotlin's `Companion`
((companion_object "object" @name) @definition.class (#set! name "Companion"))
(function_declaration (simple_identifier) @name) @definition.function
(type_alias (type_identifier) @name) @definition.type
; top-level and object-level properties
(source_file (property_declaration (variable_declaration (simple_identifier) @name)) @definition.constant)
(class_body (property_declaration (modifiers (property_modifier) @_const) (variable_declaration (simple_identifier) @name)) @definition.constant (#eq? @_const "const"))
; properties of objects and companion objects are module-level data
(object_declaration (class_body (property_declaration (variable_declaration (simple_identifier) @name)) @definition.constant))
(companion_object (class_body (property_declaration (variable_declaration (simple_identifier) @name)) @definition.constant))

; ---------------------------------------------------------------- references

(call_expression . (simple_identifier) @name) @reference.call
(call_expression . (navigation_expression (_) @qualifier . (navigation_suffix (simple_identifier) @name) .)) @reference.call

; `class A : B(), C`
(delegation_specifier [(user_type (type_identifier) @name) (constructor_invocation (user_type (type_identifier) @name))]) @reference.inherit

; ---------------------------------------------------------------- imports

; `import a.b.C` (module a.b, name C), `import a.b.c as d`, `import a.b.*`
(import_header (identifier) @import.path .) @import
(import_header (identifier) @import.path (import_alias (type_identifier) @import.alias)) @import
(import_header (identifier) @import.module (wildcard_import) @import.wildcard) @import
