; C#: objects, references and imports for allot (conventions: python.scm's header).

; ---------------------------------------------------------------- definitions

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type

; members of types become methods: methods, constructors, destructors,
; operators, properties, indexers, events with accessors
(method_declaration name: (identifier) @name) @definition.function
(constructor_declaration name: (identifier) @name) @definition.function
(destructor_declaration name: (identifier) @name) @definition.function
(local_function_statement name: (identifier) @name) @definition.function
(property_declaration name: (identifier) @name) @definition.function
(indexer_declaration "this" @name) @definition.function
(event_declaration name: (identifier) @name) @definition.function
(operator_declaration operator: _ @name) @definition.function
(conversion_operator_declaration type: (_) @name) @definition.function
; `const` fields
(field_declaration (modifier) @_const (variable_declaration (variable_declarator name: (identifier) @name)) (#eq? @_const "const")) @definition.constant

; `namespace A.B { ... }` and the file-scoped `namespace A.B;`
(namespace_declaration name: (_) @name) @scope.module
(file_scoped_namespace_declaration name: (_) @name) @scope.module

; ---------------------------------------------------------------- references

(invocation_expression function: (identifier) @name) @reference.call
(invocation_expression function: (generic_name (identifier) @name)) @reference.call
(invocation_expression function: (member_access_expression expression: (_) @qualifier name: (identifier) @name)) @reference.call
(invocation_expression function: (member_access_expression expression: (_) @qualifier name: (generic_name (identifier) @name))) @reference.call
(object_creation_expression type: (identifier) @name) @reference.call
(object_creation_expression type: (generic_name (identifier) @name)) @reference.call
(object_creation_expression type: (qualified_name qualifier: (_) @qualifier name: (identifier) @name)) @reference.call

; `class A : B, IC<T>, N.ID`
(base_list (identifier) @name) @reference.inherit
(base_list (generic_name (identifier) @name)) @reference.inherit
(base_list (qualified_name qualifier: (_) @qualifier name: (identifier) @name)) @reference.inherit

; ---------------------------------------------------------------- imports

; `using System.Text;` brings a namespace's types into scope; `using J = System.Text.Json;` names it
(using_directive . [(identifier) (qualified_name)] @import.module .) @import @import.wildcard
(using_directive (identifier) @import.alias "=" [(identifier) (qualified_name)] @import.module) @import
(using_directive name: (identifier) @import.alias [(identifier) (qualified_name)] @import.module) @import
