; OCaml: declarations that implementations (.ml) and interfaces (.mli) share (included by ocaml.scm, ocaml_interface.scm).

(type_definition (type_binding name: (type_constructor) @name) @definition.type)
(exception_definition (constructor_declaration (constructor_name) @name)) @definition.type
(module_definition (module_binding (module_name) @name) @definition.namespace)
(module_type_definition (module_type_name) @name) @definition.interface
(value_specification [(value_name) @name (parenthesized_operator (_) @name)]) @definition.function
(class_definition (class_binding (class_name) @name) @definition.class)
(method_definition (method_name) @name) @definition.function
