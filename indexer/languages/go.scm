; Go: objects, references and imports for allot (conventions: python.scm's header).
;
; Grouping: `type X int` is one declaration holding one spec; `type ( ... )`
; holds several. An ungrouped declaration is the object itself (so the doc
; comment before `type`/`const`/`var` belongs to it); in a group each spec is.
; A spec naming several constants (`const A, B = 1, 2`) gives one object per name
; (matched without the `name:` field: in const_spec only the first name carries
; it, the grammar puts the field on the commas too).

; ---------------------------------------------------------------- definitions

(function_declaration name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @receiver
             (pointer_type (type_identifier) @receiver)
             (generic_type type: (type_identifier) @receiver)
             (pointer_type (generic_type type: (type_identifier) @receiver))]))
  name: (field_identifier) @name) @definition.function

; interface methods (become methods of the interface)
(method_elem name: (field_identifier) @name) @definition.function

; types, ungrouped
((type_declaration (type_spec name: (type_identifier) @name type: (struct_type))) @definition.struct
 (#not-match? @definition.struct "^type\\s*\\("))
((type_declaration (type_spec name: (type_identifier) @name type: (interface_type))) @definition.interface
 (#not-match? @definition.interface "^type\\s*\\("))
((type_declaration (type_spec name: (type_identifier) @name type: (_) @_type)) @definition.type
 (#not-match? @definition.type "^type\\s*\\(")
 (#not-match? @_type "^(struct|interface)\\b"))
((type_declaration (type_alias name: (type_identifier) @name)) @definition.type
 (#not-match? @definition.type "^type\\s*\\("))

; types, grouped
(type_declaration "(" (type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct)
(type_declaration "(" (type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface)
((type_declaration "(" (type_spec name: (type_identifier) @name type: (_) @_type) @definition.type)
 (#not-match? @_type "^(struct|interface)\\b"))
(type_declaration "(" (type_alias name: (type_identifier) @name) @definition.type)

; top-level constants, ungrouped / grouped / several names in one spec
((source_file (const_declaration (const_spec name: (identifier) @name) @_spec) @definition.constant)
 (#not-match? @definition.constant "^const\\s*\\(")
 (#not-match? @_spec "^[^\\s,=]+\\s*,")
 (#not-eq? @name "_"))
((source_file (const_declaration "(" (const_spec name: (identifier) @name) @definition.constant))
 (#not-match? @definition.constant "^[^\\s,=]+\\s*,")
 (#not-eq? @name "_"))
((source_file (const_declaration (const_spec (identifier) @name @definition.constant) @_spec))
 (#match? @_spec "^[^\\s,=]+\\s*,")
 (#not-eq? @name "_"))

; top-level variables (indexed as constants), ungrouped / grouped / several names
((source_file (var_declaration (var_spec name: (identifier) @name) @_spec) @definition.constant)
 (#not-match? @_spec "^[^\\s,=]+\\s*,")
 (#not-eq? @name "_"))
((source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.constant)))
 (#not-match? @definition.constant "^[^\\s,=]+\\s*,")
 (#not-eq? @name "_"))
((source_file (var_declaration [(var_spec (identifier) @name @definition.constant) @_spec
                                (var_spec_list (var_spec (identifier) @name @definition.constant) @_spec)]))
 (#match? @_spec "^[^\\s,=]+\\s*,")
 (#not-eq? @name "_"))

; ---------------------------------------------------------------- references

(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (selector_expression operand: (_) @qualifier field: (field_identifier) @name)) @reference.call
; generic instantiation: `Map[int](xs)`
(call_expression function: (index_expression operand: (identifier) @name)) @reference.call
(type_conversion_expression type: (generic_type type: (type_identifier) @name)) @reference.call

; embedding is Go's inheritance: `struct { Base; *io.Reader }`, `interface { io.Closer }`
(field_declaration_list
  (field_declaration
    !name
    type: [(type_identifier) @name
           (pointer_type (type_identifier) @name)
           (generic_type type: (type_identifier) @name)
           (qualified_type package: (_) @qualifier name: (type_identifier) @name)
           (pointer_type (qualified_type package: (_) @qualifier name: (type_identifier) @name))]) @reference.inherit)
(interface_type
  (type_elem .
    [(type_identifier) @name
     (generic_type type: (type_identifier) @name)
     (qualified_type package: (_) @qualifier name: (type_identifier) @name)] .) @reference.inherit)

; ---------------------------------------------------------------- imports

; import "fmt" / grouped specs: module = the path, named after it
(import_spec !name path: (_) @import.module) @import
; import f "fmt"
(import_spec name: (package_identifier) @import.alias path: (_) @import.module) @import
; import _ "embed" (side effects only)
(import_spec name: (blank_identifier) path: (_) @import.module) @import
; import . "strings" (every exported name)
(import_spec name: (dot) @import.wildcard path: (_) @import.module) @import
