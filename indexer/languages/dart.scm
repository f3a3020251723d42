; Dart: objects, references and imports for allot (conventions: python.scm's header).
; A function's body is the next sibling of its signature: `@extent` ends the object there.

; ---------------------------------------------------------------- definitions

(class_definition name: (identifier) @name) @definition.class
(mixin_declaration (identifier) @name) @definition.trait
(extension_declaration name: (identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias (type_identifier) @name) @definition.type

; top-level functions, getters and setters with their bodies
(program (function_signature name: (identifier) @name) @definition.function . (function_body) @extent)
(program (getter_signature name: (identifier) @name) @definition.function . (function_body) @extent)
(program (setter_signature name: (identifier) @name) @definition.function . (function_body) @extent)
; methods with bodies; abstract methods and constructors are declarations
(class_body (method_signature [(function_signature name: (identifier) @name) (getter_signature name: (identifier) @name) (setter_signature name: (identifier) @name) (constructor_signature name: (identifier) @name) (factory_constructor_signature (identifier) @name)]) @definition.function . (function_body) @extent)
(extension_body (method_signature [(function_signature name: (identifier) @name) (getter_signature name: (identifier) @name) (setter_signature name: (identifier) @name)]) @definition.function . (function_body) @extent)
; a local function inside a body (`int readInteger(int bits) { ... }` in a method, helpers in a test's `main`)
(local_function_declaration (lambda_expression parameters: (function_signature name: (identifier) @name))) @definition.function
(class_body (declaration [(function_signature name: (identifier) @name) (constructor_signature name: (identifier) @name) (factory_constructor_signature (identifier) @name)]) @definition.function)
; top-level `const`/`final`/`var`
(program (static_final_declaration_list (static_final_declaration (identifier) @name) @definition.constant))

; ---------------------------------------------------------------- references

; `f(x)`, `a.f(x)`, `A.b.f(x)`: an identifier or selector followed by arguments
((identifier) @name . (selector (argument_part)) @reference.call)
((identifier) @qualifier . (selector (unconditional_assignable_selector (identifier) @name)) . (selector (argument_part)) @reference.call)
(new_expression (type_identifier) @name) @reference.call

; `class A extends B with M implements I`
(superclass (type_identifier) @name) @reference.inherit
(mixins (type_identifier) @name) @reference.inherit
(interfaces (type_identifier) @name) @reference.inherit

; ---------------------------------------------------------------- imports

; `import 'package:app/helper.dart';`, `import 'dart:math' as math;`, `export 'src/x.dart';`
(import_specification (configurable_uri (uri (string_literal) @import.module)) . (identifier) @import.alias) @import
((import_specification (configurable_uri (uri (string_literal) @import.module))) @import @import.wildcard @_spec
  (#not-match? @_spec "\\sas\\s"))
(library_export (configurable_uri (uri (string_literal) @import.module))) @import
