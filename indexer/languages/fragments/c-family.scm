; C family: what C and C++ share (included by c.scm, cpp.scm). A `@name` on a
; declarator is read down to the identifier it declares (`*table[10]` -> table).

; ---------------------------------------------------------------- definitions

(function_definition declarator: (_) @name) @definition.function

; tagged types with a body (`struct s;` forward declarations are not definitions)
(struct_specifier name: (_) @name body: (_)) @definition.struct
(union_specifier name: (_) @name body: (_)) @definition.struct
(enum_specifier name: (_) @name body: (_)) @definition.enum

; `typedef int id_t;` spans the statement; `typedef struct s {...} s_t;` is the
; struct `s` plus the type `s_t` on its declarator, so the struct is not nested in it.
(type_definition
  type: [(primitive_type) (type_identifier) (sized_type_specifier)
         (struct_specifier !body) (union_specifier !body) (enum_specifier !body)]
  declarator: (_) @name) @definition.type
(type_definition
  type: [(struct_specifier body: (_)) (union_specifier body: (_)) (enum_specifier body: (_))]
  declarator: (_) @name @definition.type)

; macros: `#define MAX 10` is a constant, `#define SQ(x) ...` a function
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function

; ---------------------------------------------------------------- references

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression argument: (_) @qualifier field: (field_identifier) @name)) @reference.call

; ---------------------------------------------------------------- imports

; #include "util/helper.h" (a repository header) and #include <stdio.h>: every name of the header becomes visible
(preproc_include path: (string_literal (string_content) @import.module)) @import @import.wildcard
(preproc_include path: (system_lib_string) @import.module) @import @import.wildcard
