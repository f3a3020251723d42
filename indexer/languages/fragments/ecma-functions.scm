; JavaScript family: function declarations (included by javascript.scm, typescript.scm).

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
; a named function expression passed as an argument (`defineGetter(req, 'query', function query() {})`)
; and a function property of an object literal (`{ index: function (req, res) {}, show(req) {} }`);
; patterns without an `(object ...)` parent: parents with many children cost deeply nested literals dearly
(arguments (function_expression name: (identifier) @name) @definition.function)
(pair key: [(property_identifier) @name (string (string_fragment) @name)] value: [(function_expression) (arrow_function) (generator_function)]) @definition.function
(method_definition name: (_) @name) @definition.function
