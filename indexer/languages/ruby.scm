; Ruby: objects, references and imports for allot (conventions: python.scm's header).

; ---------------------------------------------------------------- definitions

(class name: [(constant) (scope_resolution name: (_))] @name) @definition.class
(singleton_class value: (_) @name) @scope
(module name: [(constant) (scope_resolution name: (_))] @name) @definition.namespace
(method name: (_) @name) @definition.function
; `def self.find`: a singleton method of the enclosing class or module
(singleton_method name: (_) @name) @definition.function
; `LIMIT = 3` at top level or in a class or module
(program (assignment left: (constant) @name) @definition.constant)
(body_statement (assignment left: (constant) @name) @definition.constant)

; ---------------------------------------------------------------- references

(call receiver: (_) @qualifier method: (identifier) @name) @reference.call
(call !receiver method: (identifier) @name
  (#not-match? @name "^(require|require_relative|load|include|extend|prepend|attr_reader|attr_writer|attr_accessor|private|public|protected|module_function)$")) @reference.call
; `Helper.run` without parentheses is still a call; `new` calls the class
(call receiver: (constant) @name method: (identifier) @_new (#eq? @_new "new")) @reference.call

; `class A < B`, `include Comparable`, `extend Forwardable`
(superclass [(constant) @name (scope_resolution scope: (_) @qualifier name: (constant) @name)]) @reference.inherit
(call !receiver method: (identifier) @_mixin
  arguments: (argument_list [(constant) @name (scope_resolution scope: (_) @qualifier name: (constant) @name)])
  (#match? @_mixin "^(include|extend|prepend)$")) @reference.inherit

; ---------------------------------------------------------------- imports

; `require 'json'`, `require_relative 'lib/helper'` (the module keeps `./` for relative: see resolve/modules.ts)
(call !receiver method: (identifier) @_req
  arguments: (argument_list . (string (string_content) @import.module) .)
  (#eq? @_req "require")) @import
(call !receiver method: (identifier) @_req
  arguments: (argument_list . (string (string_content) @import.module @import.relative) .)
  (#eq? @_req "require_relative")) @import
