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

; top-level destructuring: `const { a, b: c } = obj`, `const [x, y] = pair` (not `require`: an import)
(program
  (lexical_declaration
    (variable_declarator
      name: [(object_pattern [(shorthand_property_identifier_pattern) @name @definition.constant (pair_pattern value: (identifier) @name @definition.constant)])
             (array_pattern (identifier) @name @definition.constant)]
      value: (_) @_value))
  (#not-match? @_value "^require\\s*\\("))

; `app.response.send = function () {}`, `Foo.prototype.bar = (...) => {}`: a function named by the member
; (anywhere: inside a `{ ... }` block or a function body too)
(expression_statement
  (assignment_expression
    left: (member_expression property: (property_identifier) @name)
    right: [(arrow_function) (function_expression !name) (generator_function !name)])) @definition.function
(expression_statement
  (assignment_expression
    left: (member_expression property: (property_identifier) @name)
    right: [(function_expression name: (identifier)) (generator_function name: (identifier))])
  (#not-eq? @name "exports")) @definition.function
; `module.exports = function renderFile() {}`, `handlers[k] = function onKey() {}`: the target names no function
; (a module's export slot, a computed key), the function's own name does
(expression_statement
  (assignment_expression
    left: [(member_expression property: (property_identifier) @_exports) (subscript_expression)]
    right: [(function_expression name: (identifier) @name) (generator_function name: (identifier) @name)])
  (#eq? @_exports "exports")) @definition.function

; `later = function () {}`, `nextTick = function nextTickTimeout() {}`: a function assigned to a plain name
; (a variable declared earlier, or a global), anywhere
(expression_statement
  (assignment_expression
    left: (identifier) @name
    right: [(arrow_function) (function_expression) (generator_function)])) @definition.function

; `window.SelectFilter = { init: function () {} }`, `Api = { get() {} }`: an object literal of functions assigned
; to a name is a namespace (its functions qualified by it), anywhere; literals of data only are not
(expression_statement
  (assignment_expression
    left: [(identifier) @name (member_expression property: (property_identifier) @name)]
    right: (object [(pair value: [(arrow_function) (function_expression) (generator_function)]) (method_definition)]))) @definition.namespace

; a function value declared anywhere else (a block, a function body): `{ const init = function () {} }`
; (at top level the statement patterns above read it first; the engine keeps one object)
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
