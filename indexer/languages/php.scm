; PHP: objects, references and imports for allot (conventions: python.scm's header).

; ---------------------------------------------------------------- definitions

(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(function_definition name: (name) @name) @definition.function
; methods, abstract and interface methods
(method_declaration name: (name) @name) @definition.function

; `const A = 1;` at top level or in a type; `define('A', 1);`
(const_declaration (const_element (name) @name) @definition.constant)
(expression_statement
  (function_call_expression
    function: (name) @_define
    arguments: (arguments . (argument (string (string_content) @name))))
  (#eq? @_define "define")) @definition.constant

; `namespace App\Http { ... }` (the unbraced form names the file's classes by path instead)
(namespace_definition name: (namespace_name) @name body: (compound_statement)) @scope.module

; ---------------------------------------------------------------- references

(function_call_expression function: (name) @name) @reference.call
(function_call_expression function: (qualified_name (name) @name .)) @reference.call
(member_call_expression object: (_) @qualifier name: (name) @name) @reference.call
(nullsafe_member_call_expression object: (_) @qualifier name: (name) @name) @reference.call
(scoped_call_expression scope: (_) @qualifier name: (name) @name) @reference.call
(object_creation_expression [(name) @name (qualified_name (name) @name .)]) @reference.call

; `class A extends B implements C, D`
(base_clause [(name) @name (qualified_name (name) @name .)]) @reference.inherit
(class_interface_clause [(name) @name (qualified_name (name) @name .)]) @reference.inherit
(use_declaration [(name) @name (qualified_name (name) @name .)]) @reference.inherit

; ---------------------------------------------------------------- imports

; `use App\Models\User;`, `use App\Models\User as U;`: module App\Models, name User
(namespace_use_declaration
  (namespace_use_clause (qualified_name prefix: (namespace_name) @import.module (name) @import.name) alias: (name)? @import.alias)) @import
; `use Illuminate\Support\Facades\{Route, DB as Database};`
(namespace_use_declaration
  (namespace_name) @import.module
  body: (namespace_use_group (namespace_use_clause . (name) @import.name alias: (name)? @import.alias))) @import
; require/include of a file
(expression_statement [(require_expression (string (string_content) @import.module))
                       (require_once_expression (string (string_content) @import.module))
                       (include_expression (string (string_content) @import.module))
                       (include_once_expression (string (string_content) @import.module))]) @import
