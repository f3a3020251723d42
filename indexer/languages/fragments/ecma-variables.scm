; JavaScript family: top-level and exported variables (included by javascript.scm, typescript.scm).

; Top-level `const`/`let`/`var`, exported or not. A declaration with a single
; declarator spans the whole statement, so `export` and its doc comment belong
; to it; with several declarators each declarator is its own object.
; A function value makes a `function` named by the variable, otherwise a
; `constant`; `const x = require('x')` is an import, not a constant.
; ORDER MATTERS: each function pattern must come before the constant pattern of
; the same shape. Both match the same node, tree-sitter reports the earlier
; pattern first when two finish on the same node, and the engine keeps the first.
(program
  [(lexical_declaration . (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]) .)
   (variable_declaration . (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]) .)] @definition.function)
(program
  [(lexical_declaration . (variable_declarator name: (identifier) @name value: (_) @_value) .)
   (variable_declaration . (variable_declarator name: (identifier) @name value: (_) @_value) .)] @definition.constant
  (#not-match? @_value "^require\\s*\\("))
(program
  [(lexical_declaration . (variable_declarator name: (identifier) @name !value) .)
   (variable_declaration . (variable_declarator name: (identifier) @name !value) .)] @definition.constant)

(export_statement
  declaration: (lexical_declaration . (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]) .) @definition.function)
(export_statement
  declaration: (lexical_declaration . (variable_declarator name: (identifier) @name value: (_) @_value) .) @definition.constant
  (#not-match? @_value "^require\\s*\\("))
(export_statement
  declaration: (lexical_declaration . (variable_declarator name: (identifier) @name !value) .) @definition.constant)

; several declarators: `let a = 1, b;`
(program
  [(lexical_declaration (variable_declarator name: (identifier) @name value: (_)? @_value) @definition.constant (variable_declarator))
   (lexical_declaration (variable_declarator) (variable_declarator name: (identifier) @name value: (_)? @_value) @definition.constant)
   (variable_declaration (variable_declarator name: (identifier) @name value: (_)? @_value) @definition.constant (variable_declarator))
   (variable_declaration (variable_declarator) (variable_declarator name: (identifier) @name value: (_)? @_value) @definition.constant)]
  (#not-match? @_value "^require\\s*\\("))
(export_statement
  declaration: [(lexical_declaration (variable_declarator name: (identifier) @name) @definition.constant (variable_declarator))
                (lexical_declaration (variable_declarator) (variable_declarator name: (identifier) @name) @definition.constant)])
