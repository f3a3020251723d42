; C: objects, references and imports for allot (conventions: python.scm's header).

; include fragments/c-family.scm

; file-scope variables (not prototypes: a declarator ending in a parameter list declares a function)
(translation_unit
  (declaration
    declarator: [(identifier) (init_declarator) (pointer_declarator) (array_declarator)] @name) @definition.constant
  (#not-match? @name "\\)\\s*$"))

; function pointers: `void (*free_fn)(void *p);`, `int (*cmp)(int, int) = compare;`
(translation_unit
  (declaration
    declarator: [(function_declarator declarator: (parenthesized_declarator) @name)
                 (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator) @name))]) @definition.constant)
; ... and the same when a trailing attribute macro (`void (*f)(void) ATTR;`) leaves the declaration an ERROR
(translation_unit (ERROR (function_declarator declarator: (parenthesized_declarator) @name) @definition.constant))
