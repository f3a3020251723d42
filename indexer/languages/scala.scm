; Scala: objects, references and imports for allot (conventions: python.scm's header).

; ---------------------------------------------------------------- definitions

(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.class
(trait_definition name: (identifier) @name) @definition.trait
(enum_definition name: (identifier) @name) @definition.enum
(type_definition name: (type_identifier) @name) @definition.type
(function_definition name: [(identifier) (operator_identifier)] @name) @definition.function
(function_declaration name: [(identifier) (operator_identifier)] @name) @definition.function
; top-level and object-level `val`/`var`
(compilation_unit [(val_definition pattern: (identifier) @name) (var_definition pattern: (identifier) @name)] @definition.constant)
(object_definition body: (template_body [(val_definition pattern: (identifier) @name) (var_definition pattern: (identifier) @name)] @definition.constant))
(package_object name: (identifier) @name) @scope.module

; ---------------------------------------------------------------- references

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression value: (_) @qualifier field: (identifier) @name)) @reference.call
(instance_expression (type_identifier) @name) @reference.call

; `class A extends B with C`
(extends_clause type: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.inherit

; ---------------------------------------------------------------- imports

; `import a.b.C` (module a.b, name C), `import a.b.{C, D => E}`, `import a.b._`: the path's
; segments are separate `path:` fields, captured one by one and joined with dots.
(import_declaration . "import" . (identifier) @import.path ("." . (identifier) @import.path)* . "." . (identifier) @import.name .) @import
(import_declaration . "import" . (identifier) @import.path ("." . (identifier) @import.path)* . "." .
  (namespace_selectors [(identifier) @import.name (arrow_renamed_identifier name: (_) @import.name alias: (_) @import.alias)])) @import
(import_declaration . "import" . (identifier) @import.path ("." . (identifier) @import.path)* . "." . (namespace_wildcard) @import.wildcard) @import
