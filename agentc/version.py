"""The installed version of agentc.

Input: nothing. Output: `__version__`. Invariants: equal to pyproject.toml's `project.version`
(tests/cli/test_version.py); part of the IR cache's key (agentc/ircache.py), so IR from
another version is never served.
"""

__version__ = "0.1.0"
