; Java: objects, references and imports for allot (conventions: python.scm's header).

; ---------------------------------------------------------------- definitions

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum

; Methods and constructors of named types (functions inside a type become
; methods, named `Type.method`). Methods of anonymous classes are left to the
; body of the method that creates them.
(class_declaration
  body: (class_body
    [(method_declaration name: (identifier) @name)
     (constructor_declaration name: (identifier) @name)] @definition.function))
(record_declaration
  body: (class_body
    [(method_declaration name: (identifier) @name)
     (constructor_declaration name: (identifier) @name)
     (compact_constructor_declaration name: (identifier) @name)] @definition.function))
(enum_declaration
  body: (enum_body (enum_body_declarations
    [(method_declaration name: (identifier) @name)
     (constructor_declaration name: (identifier) @name)] @definition.function)))
(interface_declaration
  body: (interface_body (method_declaration name: (identifier) @name) @definition.function))

; Constants: `static final` fields, and every field of an interface. A field
; with one declarator spans the declaration (modifiers, annotations, Javadoc);
; `static final int A = 1, B = 2;` gives one object per declarator.
((field_declaration
   (modifiers) @_modifiers
   type: (_) . declarator: (variable_declarator name: (identifier) @name) .) @definition.constant
 (#match? @_modifiers "\\bstatic\\b")
 (#match? @_modifiers "\\bfinal\\b"))
((field_declaration
   (modifiers) @_modifiers
   declarator: (variable_declarator name: (identifier) @name) @definition.constant
   declarator: (variable_declarator))
 (#match? @_modifiers "\\bstatic\\b")
 (#match? @_modifiers "\\bfinal\\b"))
((field_declaration
   (modifiers) @_modifiers
   declarator: (variable_declarator)
   declarator: (variable_declarator name: (identifier) @name) @definition.constant)
 (#match? @_modifiers "\\bstatic\\b")
 (#match? @_modifiers "\\bfinal\\b"))
(constant_declaration type: (_) . declarator: (variable_declarator name: (identifier) @name) .) @definition.constant
(constant_declaration
  declarator: (variable_declarator name: (identifier) @name) @definition.constant
  declarator: (variable_declarator))
(constant_declaration
  declarator: (variable_declarator)
  declarator: (variable_declarator name: (identifier) @name) @definition.constant)

; ---------------------------------------------------------------- references

(method_invocation !object name: (identifier) @name) @reference.call
(method_invocation object: (_) @qualifier name: (identifier) @name) @reference.call
; `Foo::bar`, `this::bar`, `Foo::new` (a reference to the constructor Foo)
(method_reference . (_) @qualifier . (identifier) @name .) @reference.call
(method_reference . [(type_identifier) (identifier)] @name . "::" . "new" .) @reference.call
; `new Foo<>(...)`, `new a.b.Foo()` call Foo
(object_creation_expression
  type: [(type_identifier) @name
         (generic_type (type_identifier) @name)
         (scoped_type_identifier . (_) @qualifier (type_identifier) @name .)
         (generic_type (scoped_type_identifier . (_) @qualifier (type_identifier) @name .))]) @reference.call

; `extends A<T>`, `implements B, a.b.C`; interfaces `extends D`
(superclass
  [(type_identifier) @name
   (generic_type (type_identifier) @name)
   (scoped_type_identifier . (_) @qualifier (type_identifier) @name .)
   (generic_type (scoped_type_identifier . (_) @qualifier (type_identifier) @name .))]) @reference.inherit
([(super_interfaces (type_list
    [(type_identifier) @name
     (generic_type (type_identifier) @name)
     (scoped_type_identifier . (_) @qualifier (type_identifier) @name .)
     (generic_type (scoped_type_identifier . (_) @qualifier (type_identifier) @name .))]))
  (extends_interfaces (type_list
    [(type_identifier) @name
     (generic_type (type_identifier) @name)
     (scoped_type_identifier . (_) @qualifier (type_identifier) @name .)
     (generic_type (scoped_type_identifier . (_) @qualifier (type_identifier) @name .))]))]) @reference.inherit

; ---------------------------------------------------------------- imports

; import a.b.C;  import static a.b.C.member;  -> module `a.b`, name `C`
(import_declaration (scoped_identifier scope: (_) @import.module name: (identifier) @import.name) .) @import
; import a.b.*;  import static a.b.C.*;  -> module `a.b`, name `*`
(import_declaration (scoped_identifier) @import.module (asterisk) @import.wildcard) @import
; import C;  (a class of the unnamed package)
(import_declaration (identifier) @import.module .) @import
