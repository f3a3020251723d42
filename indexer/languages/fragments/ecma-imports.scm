; JavaScript family: ES module imports and re-exports, CommonJS `require`, `import()`
; (included by javascript.scm, typescript.scm).

; import { a, b as c } from './x'   (also `import type { ... }`)
(import_statement
  (import_clause (named_imports (import_specifier name: (_) @import.name alias: (_)? @import.alias)))
  source: (string) @import.module) @import
; import x from './x'    -> module './x' bound to x
(import_statement (import_clause (identifier) @import.alias) source: (string) @import.module) @import
; import * as ns from './x'
(import_statement (import_clause (namespace_import (identifier) @import.alias)) source: (string) @import.module) @import
; import './side-effect'
(import_statement . source: (string) @import.module) @import

; export { a, b as c } from './x' / export * from './x' / export * as ns from './x'
(export_statement
  (export_clause (export_specifier name: (_) @import.name alias: (_)? @import.alias))
  source: (string) @import.module) @import
(export_statement "*" @import.wildcard source: (string) @import.module) @import
(export_statement (namespace_export (identifier) @import.alias) source: (string) @import.module) @import

; const x = require('./x'); const { a, b: c } = require('./x'); require('./x');
(variable_declarator
  name: (identifier) @import.alias
  value: (call_expression function: (identifier) @_require arguments: (arguments . (string) @import.module .))
  (#eq? @_require "require")) @import
(variable_declarator
  name: (object_pattern
    [(shorthand_property_identifier_pattern) @import.name
     (pair_pattern key: (property_identifier) @import.name value: (identifier) @import.alias)])
  value: (call_expression function: (identifier) @_require arguments: (arguments . (string) @import.module .))
  (#eq? @_require "require")) @import
(expression_statement
  (call_expression function: (identifier) @_require arguments: (arguments . (string) @import.module .))
  (#eq? @_require "require")) @import
; import('./x')
(call_expression function: (import) arguments: (arguments . (string) @import.module)) @import
