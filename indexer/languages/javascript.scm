; JavaScript (ES modules, CommonJS, JSX): objects, references and imports for allot
; (conventions: python.scm's header; `; include` lines: typescript.scm's).

; ---------------------------------------------------------------- definitions

(class_declaration name: (identifier) @name) @definition.class

; include fragments/ecma-functions.scm

; class members (functions inside a class become methods): methods, getters,
; setters, constructors, arrow-function fields
(class_body (method_definition name: (_) @name) @definition.function)
(class_body
  (field_definition
    property: (_) @name
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)

; include fragments/ecma-variables.scm

; CommonJS `exports.name = function () {}` is a member assignment (fragments/ecma-variables.scm)

; ---------------------------------------------------------------- references

; include fragments/ecma-calls.scm
; include fragments/jsx.scm

; `class A extends B`, `class A extends ns.B`
(class_heritage (identifier) @name) @reference.inherit
(class_heritage (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.inherit

; ---------------------------------------------------------------- imports

; include fragments/ecma-imports.scm
