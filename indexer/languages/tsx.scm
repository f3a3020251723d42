; TSX: objects, references and imports for allot (typescript.scm plus JSX).
; Capture conventions (shared by every language file):
;   @definition.<kind> on the node spanning an object, @name on its name;
;   @scope with @name: a naming scope that is not itself an object;
;   @reference.call / @reference.inherit with @name and optional @qualifier;
;   @import on an import statement, with @import.module, @import.name, @import.alias
;   (@import.wildcard marks `*`).
; Names starting with `_` are helper captures for predicates; the engine ignores them.
; Keep typescript.scm, tsx.scm and javascript.scm in step: they share most patterns.

; ---------------------------------------------------------------- definitions

(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias_declaration name: (type_identifier) @name) @definition.type

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
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

; Top-level `const`/`let`/`var`, exported or not. A declaration with a single
; declarator spans the whole statement, so `export` and its doc comment belong
; to it; with several declarators each declarator is its own object.
; A function value makes a `function` named by the variable, otherwise a
; `constant`; `const x = require('x')` is an import, not a constant.
; ORDER MATTERS: each function pattern must come before the constant pattern of
; the same shape. Both match the same node, tree-sitter reports the earlier
; pattern first when two finish on the same node, and the engine keeps the first.
(program
  [(lexical_declaration . (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]) .)
   (variable_declaration . (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]) .)] @definition.function)
(program
  [(lexical_declaration . (variable_declarator name: (identifier) @name value: (_) @_value) .)
   (variable_declaration . (variable_declarator name: (identifier) @name value: (_) @_value) .)] @definition.constant
  (#not-match? @_value "^require\\s*\\("))
(program
  [(lexical_declaration . (variable_declarator name: (identifier) @name !value) .)
   (variable_declaration . (variable_declarator name: (identifier) @name !value) .)] @definition.constant)

(export_statement
  declaration: (lexical_declaration . (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]) .) @definition.function)
(export_statement
  declaration: (lexical_declaration . (variable_declarator name: (identifier) @name value: (_) @_value) .) @definition.constant
  (#not-match? @_value "^require\\s*\\("))
(export_statement
  declaration: (lexical_declaration . (variable_declarator name: (identifier) @name !value) .) @definition.constant)

; several declarators: `let a = 1, b;`
(program
  [(lexical_declaration (variable_declarator name: (identifier) @name value: (_)? @_value) @definition.constant (variable_declarator))
   (lexical_declaration (variable_declarator) (variable_declarator name: (identifier) @name value: (_)? @_value) @definition.constant)
   (variable_declaration (variable_declarator name: (identifier) @name value: (_)? @_value) @definition.constant (variable_declarator))
   (variable_declaration (variable_declarator) (variable_declarator name: (identifier) @name value: (_)? @_value) @definition.constant)]
  (#not-match? @_value "^require\\s*\\("))
(export_statement
  declaration: [(lexical_declaration (variable_declarator name: (identifier) @name) @definition.constant (variable_declarator))
                (lexical_declaration (variable_declarator) (variable_declarator name: (identifier) @name) @definition.constant)])

; ---------------------------------------------------------------- references

(call_expression
  function: (identifier) @name
  (#not-eq? @name "require")) @reference.call
(call_expression
  function: (member_expression
    object: (_) @qualifier
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.call
; `new Foo()` calls Foo
(new_expression constructor: (identifier) @name) @reference.call
(new_expression
  constructor: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call

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

; import { a, b as c } from './x'   (also `import type { ... }`)
(import_statement
  (import_clause (named_imports (import_specifier name: (_) @import.name alias: (_)? @import.alias)))
  source: (string) @import.module) @import
; import x from './x'    -> module './x' bound to x
(import_statement (import_clause (identifier) @import.alias) source: (string) @import.module) @import
; import * as ns from './x'
(import_statement (import_clause (namespace_import (identifier) @import.alias)) source: (string) @import.module) @import
; import './side-effect'
(import_statement . source: (string) @import.module) @import
; import fs = require('fs')
(import_statement (import_require_clause (identifier) @import.alias source: (string) @import.module)) @import

; export { a, b as c } from './x' / export * from './x' / export * as ns from './x'
(export_statement
  (export_clause (export_specifier name: (_) @import.name alias: (_)? @import.alias))
  source: (string) @import.module) @import
(export_statement "*" @import.wildcard source: (string) @import.module) @import
(export_statement (namespace_export (identifier) @import.alias) source: (string) @import.module) @import

; const x = require('./x'); const { a, b: c } = require('./x'); require('./x');
(variable_declarator
  name: (identifier) @import.alias
  value: (call_expression function: (identifier) @_require arguments: (arguments . (string) @import.module .))
  (#eq? @_require "require")) @import
(variable_declarator
  name: (object_pattern
    [(shorthand_property_identifier_pattern) @import.name
     (pair_pattern key: (property_identifier) @import.name value: (identifier) @import.alias)])
  value: (call_expression function: (identifier) @_require arguments: (arguments . (string) @import.module .))
  (#eq? @_require "require")) @import
(expression_statement
  (call_expression function: (identifier) @_require arguments: (arguments . (string) @import.module .))
  (#eq? @_require "require")) @import
; import('./x')
(call_expression function: (import) arguments: (arguments . (string) @import.module)) @import

; ---------------------------------------------------------------- JSX

; rendering a component is a call: <Button />, <Form.Field>; lower-case tags are HTML
(jsx_opening_element
  name: (identifier) @name
  (#match? @name "^[A-Z]")) @reference.call
(jsx_self_closing_element
  name: (identifier) @name
  (#match? @name "^[A-Z]")) @reference.call
(jsx_opening_element
  name: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call
(jsx_self_closing_element
  name: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call
