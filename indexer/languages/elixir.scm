; Elixir: objects, references and imports for allot (conventions: python.scm's header).
; Definitions are macro calls (`def name(args) do`): the target says what a call defines.

; ---------------------------------------------------------------- definitions

(call target: (identifier) @_kw (arguments . (alias) @name) (#eq? @_kw "defmodule")) @definition.namespace
(call target: (identifier) @_kw (arguments . (alias) @name) (#match? @_kw "^(defprotocol)$")) @definition.interface
(call target: (identifier) @_kw (arguments . (alias) @name) (#eq? @_kw "defimpl")) @scope

; `def f(x)`, `def f`, `def f(x) when guard`, `defp`, `defmacro(p)`, `defguard(p)`, `defdelegate`, `defn`
(call target: (identifier) @_kw
  (arguments . [(call target: (identifier) @name)
                (identifier) @name
                (binary_operator left: (call target: (identifier) @name) operator: "when")
                (binary_operator left: (identifier) @name operator: "when")])
  (#match? @_kw "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp)$")) @definition.function

; `@type t :: ...`, `@typep`, `@opaque`, `@callback f(x) :: y`
(unary_operator operator: "@"
  operand: (call target: (identifier) @_kw
    (arguments . (binary_operator left: [(identifier) @name (call target: (identifier) @name)] operator: "::")))
  (#match? @_kw "^(type|typep|opaque|callback|macrocallback)$")) @definition.type
; `test "does x" do`: a test named by its string
(call target: (identifier) @_kw (arguments . (string (quoted_content) @name)) (do_block) (#match? @_kw "^(test|describe)$")) @definition.function

; ---------------------------------------------------------------- references

(call target: (identifier) @name
  (#not-match? @name "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp|defmodule|defprotocol|defimpl|defstruct|defexception|alias|import|require|use|test|describe|moduledoc|doc|spec|typedoc|impl|behaviour|derive|enforce_keys|type|typep|opaque|callback)$")) @reference.call
(call target: (dot left: (_) @qualifier right: (identifier) @name)) @reference.call

; `use GenServer` and `@behaviour GenServer` as inheritance
(call target: (identifier) @_kw (arguments . (alias) @name) (#eq? @_kw "use")) @reference.inherit

; ---------------------------------------------------------------- imports

; `alias App.Helper` binds `Helper`; `alias App.Helper, as: H`; `import Enum`, `require Logger`, `use GenServer`
(call target: (identifier) @_kw (arguments . (alias) @import.path .) (#eq? @_kw "alias")) @import
(call target: (identifier) @_kw (arguments . (alias) @import.module (keywords (pair key: (keyword) @_as value: (alias) @import.alias))) (#eq? @_kw "alias") (#match? @_as "^as")) @import
(call target: (identifier) @_kw (arguments . (alias) @import.module) (#match? @_kw "^(require|use)$")) @import
(call target: (identifier) @_kw (arguments . (alias) @import.module) (#eq? @_kw "import")) @import @import.wildcard
