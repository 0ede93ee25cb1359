"""`agentc lsp`: the language server for `.agent` files (pygls over stdio).

Modules: `analysis` (a document checked exactly as `agentc check` does, diagnostics in LSP
form), `index` (declarations and uses of every name), `hover`, `navigate` (definition,
references, rename), `complete`, `symbols` (semantic tokens, outline), `python` (the used
Python modules, read statically), `positions` (spans ↔ LSP ranges), `server` (the wiring).
Nothing here imports or runs the user's Python.
"""
