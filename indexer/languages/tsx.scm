; TSX: TypeScript plus JSX (conventions: python.scm's header).

; include typescript.scm
; include fragments/jsx.scm
