; JavaScript family: function declarations (included by javascript.scm, typescript.scm).

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
; a named function expression passed as an argument (`defineGetter(req, 'query', function query() {})`)
; and a function property of an object literal (`{ index: function (req, res) {}, show(req) {} }`);
; patterns without an `(object ...)` parent: parents with many children cost deeply nested literals dearly
(arguments (function_expression name: (identifier) @name) @definition.function)
; A function expression with a name of its own is named by it (ECMAScript's `Function.prototype.name`, the name stack
; traces show), not by the key: `_onBlur: function onBlur() {}` is `onBlur`; an unnamed one takes the key.
(pair key: [(property_identifier) @name (string (string_fragment) @name)] value: [(function_expression !name) (arrow_function) (generator_function !name)]) @definition.function
(pair value: [(function_expression name: (identifier) @name) (generator_function name: (identifier) @name)]) @definition.function
; `return function generateETag() {}`: a named function made by a factory
(return_statement [(function_expression name: (identifier) @name) (generator_function name: (identifier) @name)] @definition.function)
(method_definition name: (_) @name) @definition.function
