; JavaScript family: calls and `new` (included by javascript.scm, typescript.scm).

(call_expression
  function: (identifier) @name
  (#not-eq? @name "require")) @reference.call
(call_expression
  function: (member_expression
    object: (_) @qualifier
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.call
; `new Foo()` calls Foo
(new_expression constructor: (identifier) @name) @reference.call
(new_expression
  constructor: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call
