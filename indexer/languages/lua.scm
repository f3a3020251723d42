; Lua: objects, references and imports for allot (conventions: python.scm's header).

; ---------------------------------------------------------------- definitions

; `function f()`, `local function f()`, `function M.f()`, `function M:f()` (on a table: a method of it)
(function_declaration name: (identifier) @name) @definition.function
(function_declaration name: (dot_index_expression table: (_) @receiver field: (identifier) @name)) @definition.function
(function_declaration name: (method_index_expression table: (_) @receiver method: (identifier) @name)) @definition.function
; `f = function() end`, `M.f = function() end`, `local f = function() end`
(assignment_statement
  (variable_list . name: [(identifier) @name (dot_index_expression table: (_) @receiver field: (identifier) @name)])
  (expression_list . value: (function_definition))) @definition.function
; `{ name = function() end }`: a function field of a table
(field name: (identifier) @name value: (function_definition)) @definition.function
; top-level variables that are not `require`d modules
(chunk (variable_declaration (assignment_statement (variable_list . name: (identifier) @name) (expression_list . value: (_) @_value))) @definition.constant
  (#not-match? @_value "^require[\\s(]"))
(chunk (assignment_statement (variable_list . name: (identifier) @name) (expression_list . value: (_) @_value)) @definition.constant
  (#not-match? @_value "^require[\\s(]"))

; ---------------------------------------------------------------- references

(function_call name: (identifier) @name (#not-eq? @name "require")) @reference.call
(function_call name: (dot_index_expression table: (_) @qualifier field: (identifier) @name)) @reference.call
(function_call name: (method_index_expression table: (_) @qualifier method: (identifier) @name)) @reference.call

; ---------------------------------------------------------------- imports

; `local json = require("json")`, `local h = require "lib.helper"`, `require("x")`
(variable_declaration
  (assignment_statement
    (variable_list . name: (identifier) @import.alias)
    (expression_list . value: (function_call name: (identifier) @_req arguments: (arguments . (string content: (string_content) @import.module)))))
  (#eq? @_req "require")) @import
(chunk (function_call name: (identifier) @_req arguments: (arguments . (string content: (string_content) @import.module))) @import (#eq? @_req "require"))
(block (function_call name: (identifier) @_req arguments: (arguments . (string content: (string_content) @import.module))) @import (#eq? @_req "require"))
