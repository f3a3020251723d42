; JSX: rendering a component is a call (included by javascript.scm, tsx.scm).

; rendering a component is a call: <Button />, <Form.Field>; lower-case tags are HTML
(jsx_opening_element
  name: (identifier) @name
  (#match? @name "^[A-Z]")) @reference.call
(jsx_self_closing_element
  name: (identifier) @name
  (#match? @name "^[A-Z]")) @reference.call
(jsx_opening_element
  name: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call
(jsx_self_closing_element
  name: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call
