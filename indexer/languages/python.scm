; Python: objects, references and imports for allot.
; Capture conventions (shared by every language file):
;   @definition.<kind> on the node spanning an object, @name on its name
;     (kinds: class interface struct enum trait type function method constant);
;   @scope with @name: a naming scope that is not itself an object (`impl T`);
;   @scope.module with @name: a namespace (`namespace A.B`, `mod m`): its functions stay functions;
;   @extent: where the object's span ends when not at the definition node (a body that is its next sibling);
;   @receiver beside @name: the type a function is declared on (Go `func (s *S) f`), making it a method;
;   @reference.call / @reference.inherit with @name and optional @qualifier;
;   @import on an import statement, with @import.module, @import.name, @import.alias
;   (@import.wildcard marks `*`).
; Names starting with `_` are helper captures for predicates; the engine ignores them.
; A line `; include <file>` is replaced by that file (relative to this folder) when the
; query loads: families share fragments (fragments/*.scm) by composition.

(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function

; module-level constants: single-name assignments at top level
(module (expression_statement (assignment left: (identifier) @name)) @definition.constant)

(call function: (identifier) @name) @reference.call
(call function: (attribute object: (_) @qualifier attribute: (identifier) @name)) @reference.call

(class_definition superclasses: (argument_list (identifier) @name) @reference.inherit)
(class_definition superclasses: (argument_list (attribute object: (_) @qualifier attribute: (identifier) @name)) @reference.inherit)

(import_statement name: (dotted_name) @import.module) @import
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module name: (dotted_name) @import.name) @import
(import_from_statement module_name: (_) @import.module name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module (wildcard_import)) @import
