; OCaml interfaces (.mli): the declarations of a module's signature (conventions: python.scm's header).
; `val f : t` declares a function or value; the doc comment after it is OCaml's convention, not read here.

; include fragments/ocaml-declarations.scm

; `open M`, `include S`
(open_module module: (module_path) @import.module) @import @import.wildcard
