; C: objects, references and imports for allot (conventions: python.scm's header).

; include fragments/c-family.scm

; file-scope variables (not prototypes: a declarator ending in a parameter list declares a function)
(translation_unit
  (declaration
    declarator: [(identifier) (init_declarator) (pointer_declarator) (array_declarator)] @name) @definition.constant
  (#not-match? @name "\\)\\s*$"))
