; Rust: objects, references and imports for allot (conventions: python.scm's header).
; Paths keep Rust's `::`. For `use a::b::c` the module is `a::b` and the name `c`;
; inside braces the module is the path written before the innermost braces
; (`use a::{b::{c}}` gives module `b`, name `c`: a query cannot join paths).

; ---------------------------------------------------------------- definitions

(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
; `type Output;` in a trait
(associated_type name: (type_identifier) @name) @definition.type

; functions; in a trait or impl they become methods (default bodies and bare signatures)
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
; `macro_rules! name` is callable like a function
(macro_definition name: (identifier) @name) @definition.function

; item-level `const` and `static` (not the ones local to a function body)
(source_file [(const_item name: (identifier) @name) (static_item name: (identifier) @name)] @definition.constant)
(declaration_list [(const_item name: (identifier) @name) (static_item name: (identifier) @name)] @definition.constant)

; `impl<T> Server<T>`, `impl Trait for a::Server`, `impl Trait for u32`
(impl_item
  type: [(type_identifier) @name
         (primitive_type) @name
         (generic_type type: (type_identifier) @name)
         (scoped_type_identifier name: (type_identifier) @name)
         (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
         (reference_type type: (type_identifier) @name)
         (reference_type type: (generic_type type: (type_identifier) @name))]) @scope
; inline modules (`mod m;` declares a file and has no body)
(mod_item name: (identifier) @name body: (declaration_list)) @scope.module

; ---------------------------------------------------------------- references

; `f()`, `a::b::f()` (qualifier `a::b`), `x.f()` (qualifier `x`), with or without turbofish
(call_expression
  function: [(identifier) @name
             (scoped_identifier path: (_) @qualifier name: (identifier) @name)
             (field_expression value: (_) @qualifier field: (field_identifier) @name)
             (generic_function
               function: [(identifier) @name
                          (scoped_identifier path: (_) @qualifier name: (identifier) @name)
                          (field_expression value: (_) @qualifier field: (field_identifier) @name)])]) @reference.call
; `name!(...)`, `a::name!(...)`
(macro_invocation
  macro: [(identifier) @name
          (scoped_identifier path: (_) @qualifier name: (identifier) @name)]) @reference.call

; `impl Trait for Type` inherits Trait; `trait A: B + c::D<T>` inherits B and D
(impl_item
  trait: [(type_identifier) @name
          (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name)
          (generic_type type: (type_identifier) @name)
          (generic_type type: (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name))] @reference.inherit)
(trait_item
  bounds: (trait_bounds
    [(type_identifier) @name
     (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name)
     (generic_type type: (type_identifier) @name)
     (generic_type type: (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name))]) @reference.inherit)

; ---------------------------------------------------------------- imports

; use a;  use a::b::c;  use a::b::c as d;  use a as d;
(use_declaration argument: (identifier) @import.module) @import
(use_declaration argument: (scoped_identifier path: (_) @import.module name: (identifier) @import.name)) @import
(use_declaration
  argument: (use_as_clause
    path: (scoped_identifier path: (_) @import.module name: (identifier) @import.name)
    alias: (identifier) @import.alias)) @import
(use_declaration argument: (use_as_clause path: (identifier) @import.module alias: (identifier) @import.alias)) @import

; use a::b::*;  use super::*;  (also inside braces)
(use_wildcard . (_) @import.module) @import @import.wildcard

; use a::b::{c, d as e, f::g, self};  each brace group is one statement
(scoped_use_list path: (_) @import.module list: (use_list (identifier) @import.name)) @import
(scoped_use_list
  path: (_) @import.module
  list: (use_list (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias))) @import
(scoped_use_list
  list: (use_list
    (use_as_clause
      path: (scoped_identifier path: (_) @import.module name: (identifier) @import.name)
      alias: (identifier) @import.alias))) @import
(scoped_use_list
  list: (use_list (scoped_identifier path: (_) @import.module name: (identifier) @import.name))) @import
; `self` in braces imports the path itself: `use a::b::{self}` is module `a`, name `b`
(scoped_use_list
  path: (scoped_identifier path: (_) @import.module name: (identifier) @import.name)
  list: (use_list (self))) @import
(scoped_use_list path: (identifier) @import.module list: (use_list (self))) @import

; extern crate foo;  extern crate foo as bar;
(extern_crate_declaration name: (identifier) @import.module alias: (identifier)? @import.alias) @import
