; Bash (and sh, zsh, ksh): objects, references and imports for allot (conventions: python.scm's header).

; ---------------------------------------------------------------- definitions

(function_definition name: (word) @name) @definition.function
; top-level `NAME=value` and `export NAME=value`
(program (variable_assignment name: (variable_name) @name) @definition.constant)
(program (declaration_command (variable_assignment name: (variable_name) @name)) @definition.constant)

; ---------------------------------------------------------------- references

; running a command is a call (most name programs outside the repository, left unresolved)
(command name: (command_name (word) @name)
  (#not-match? @name "^(source|\\.)$")) @reference.call

; ---------------------------------------------------------------- imports

; `source lib/common.sh`, `. "$DIR/other.sh"`
(command name: (command_name (word) @_source) . argument: [(word) (string) (raw_string) (concatenation)] @import.module
  (#match? @_source "^(source|\\.)$")) @import @import.wildcard
