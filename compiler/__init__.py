"""The compiler: a parsed `.agent` file → `ir.Program` and diagnostics.

Input: `.agent` text or a path. Output: `CompileResult` (pipeline.py, the one place that
sequences the passes: resolve → check → lower → structural checks). Invariant: user
mistakes are diagnostics, never exceptions; no user Python is imported or run.
"""
