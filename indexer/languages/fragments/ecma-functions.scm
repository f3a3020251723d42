; JavaScript family: function declarations (included by javascript.scm, typescript.scm).

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
