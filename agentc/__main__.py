"""`python -m agentc …`: the same command line as the `agentc` console script (agentc/cli.py).

Input: `sys.argv`. Output: the process exits with `main()`'s code. Invariants: nothing but
the hand-off; every command lives in its own `cmd_*.py`.
"""

from .cli import main

raise SystemExit(main())
