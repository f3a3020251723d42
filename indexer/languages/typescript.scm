; TypeScript: objects, references and imports for allot (conventions: python.scm's header).
; Lines `; include <file>` are replaced by that file (relative to this folder) when the query loads.

; ---------------------------------------------------------------- definitions

(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias_declaration name: (type_identifier) @name) @definition.type

; include fragments/ecma-functions.scm
; `declare function f(): void;` and overload signatures
(function_signature name: (identifier) @name) @definition.function

; class members (functions inside a class become methods): methods, getters,
; setters, constructors, overload and abstract signatures, arrow-function fields
(class_body (method_definition name: (_) @name) @definition.function)
(class_body (method_signature name: (_) @name) @definition.function)
(class_body (abstract_method_signature name: (_) @name) @definition.function)
(class_body
  (public_field_definition
    name: (_) @name
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
(interface_body (method_signature name: (_) @name) @definition.function)

; `namespace A.B { ... }` / `module A { ... }`: members are named `A.B.member`
(internal_module name: [(identifier) (nested_identifier)] @name) @scope.module
(module name: [(identifier) (nested_identifier)] @name) @scope.module

; include fragments/ecma-variables.scm

; `declare const X: T`, `declare function f(): void` (the signature pattern above), `declare class C {}`
(program (ambient_declaration (lexical_declaration (variable_declarator name: (identifier) @name))) @definition.constant)
(program (ambient_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.constant)
(export_statement declaration: (ambient_declaration (lexical_declaration (variable_declarator name: (identifier) @name))) @definition.constant)

; ---------------------------------------------------------------- references

; include fragments/ecma-calls.scm

; `class A extends B implements C, D.E`, `interface I extends J<T>`
(extends_clause value: (identifier) @name) @reference.inherit
(extends_clause value: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.inherit
(implements_clause
  [(type_identifier) @name
   (generic_type name: (type_identifier) @name)
   (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name)
   (generic_type name: (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name))]) @reference.inherit
(extends_type_clause
  type: [(type_identifier) @name
         (generic_type name: (type_identifier) @name)
         (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name)
         (generic_type name: (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name))]) @reference.inherit

; ---------------------------------------------------------------- imports

; include fragments/ecma-imports.scm
; import fs = require('fs')
(import_statement (import_require_clause (identifier) @import.alias source: (string) @import.module)) @import
