; Haskell: objects, references and imports for allot (conventions: python.scm's header).
; A type signature just before a function belongs to its span (the registry's `leading`).

; ---------------------------------------------------------------- definitions

(data_type name: (name) @name) @definition.struct
(newtype name: (name) @name) @definition.struct
(type_synomym name: (name) @name) @definition.type
(type_family name: (name) @name) @definition.type
(class name: (name) @name) @definition.interface
; a record field is an accessor function of its type: `data Options = Options { rcfile :: FilePath }`
(field name: (field_name (variable) @name)) @definition.function
; class methods are their signatures
(class_declarations (signature name: (variable) @name) @definition.function)

; top-level functions (each equation of a function is one object) and values
(declarations (function name: (variable) @name) @definition.function)
(declarations (bind name: (variable) @name) @definition.function)

; ---------------------------------------------------------------- references

; application: `f x`, `M.lookup x`; the innermost function of a curried application is the callee
(apply function: (variable) @name) @reference.call
(apply function: (qualified module: (module) @qualifier id: (variable) @name)) @reference.call

; `instance Show User` implements Show
(instance name: (name) @name) @reference.inherit

; ---------------------------------------------------------------- imports

; `import Data.Map`, `import qualified Data.Map as M`
(import module: (module) @import.module !alias) @import @import.wildcard
(import module: (module) @import.module alias: (module) @import.alias) @import
