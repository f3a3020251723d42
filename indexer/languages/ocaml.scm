; OCaml: objects, references and imports for allot (conventions: python.scm's header).
; `let`, `type`, `module` and `class` definitions may bind several names (`let a = .. and b = ..`):
; each binding is an object; a lone binding's keyword and doc comment come through the
; registry's `wrappers`.

; ---------------------------------------------------------------- definitions

; top-level and module-level `let`: a function when it takes parameters or is a `fun`
(value_definition (let_binding pattern: (value_name) @name (parameter)) @definition.function)
(value_definition (let_binding pattern: (value_name) @name body: [(fun_expression) (function_expression)]) @definition.function)
; data at module level only (a file's or a `struct`'s): a `let x = ... in` inside an expression is a local, as
; in every other language; local functions stay objects (above)
(compilation_unit (value_definition (let_binding pattern: (value_name) @name) @definition.constant))
(structure (value_definition (let_binding pattern: (value_name) @name) @definition.constant))
; `let a, b = ...`: each name of the tuple
(compilation_unit (value_definition (let_binding pattern: (tuple_pattern (value_name) @name @definition.constant))))
(structure (value_definition (let_binding pattern: (tuple_pattern (value_name) @name @definition.constant))))
(external (value_name) @name) @definition.function
; operators: `let (>>=) p f = ...`
(value_definition (let_binding pattern: (parenthesized_operator (_) @name)) @definition.function)

; include fragments/ocaml-declarations.scm

; ---------------------------------------------------------------- references

(application_expression function: (value_path . (value_name) @name .)) @reference.call
(application_expression function: (value_path (module_path) @qualifier (value_name) @name)) @reference.call

(inheritance_definition (class_path (class_name) @name)) @reference.inherit

; ---------------------------------------------------------------- imports

; `open Printf`, `include Base`
(open_module module: (module_path) @import.module) @import @import.wildcard
(include_module module: (module_path) @import.module) @import
