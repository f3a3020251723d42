; C++: objects, references and imports for allot (conventions: python.scm's header).

; out-of-class member definitions (before the fragment's plain functions: the first match of a node wins): `void Widget::draw() {}`, `ns::Widget::Widget()`
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier scope: (_) @receiver name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))) @definition.function
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      name: (qualified_identifier scope: (_) @receiver name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))) @definition.function

; include fragments/c-family.scm

(class_specifier name: (_) @name body: (_)) @definition.class
(alias_declaration name: (type_identifier) @name) @definition.type
(concept_definition name: (identifier) @name) @definition.type

; `namespace a { ... }`, `namespace a::b { ... }`: members are named `a.b.member`
(namespace_definition name: (_) @name) @scope.module

; namespace-scope variables
(translation_unit
  (declaration
    declarator: [(identifier) (init_declarator) (pointer_declarator) (array_declarator) (reference_declarator)] @name) @definition.constant
  (#not-match? @name "\\)\\s*$"))

(declaration_list
  (declaration
    declarator: [(identifier) (init_declarator) (pointer_declarator) (array_declarator) (reference_declarator)] @name) @definition.constant
  (#not-match? @name "\\)\\s*$"))

(call_expression function: (qualified_identifier scope: (_) @qualifier name: (identifier) @name)) @reference.call
(call_expression function: (template_function name: (identifier) @name)) @reference.call
(new_expression type: (type_identifier) @name) @reference.call

; `class A : public B, protected ns::C`
(base_class_clause (type_identifier) @name) @reference.inherit
(base_class_clause (qualified_identifier scope: (_) @qualifier name: (type_identifier) @name)) @reference.inherit
