"""The rooms of `agentc run` (agentc/cmd_run.py is the command itself).

Input: the parsed command line, from `cmd_run`. Output: the run's transcript and exit code.

Rooms, in the order a run uses them: `inputs` (the command line's files and the user's
input) → `given` (that input as a message or as channel values, `--set`, `--context`, each
checked against the graph, with `runtime.schema.check` for a value against its type) →
`cassettes`
(record/replay of the agent's model) → `calls` (every model of the run counts its calls
and tokens) → `session` (bind the graph to its checkpointer and store, drive the run
across pauses) → `transcript` (print the runtime's events as they arrive: each node's
update, with `lines` for how each message reads and `pauses` for answering human review)
→ `summary` (the closing lines, `--json`). `agentc/dotenv.py` loads `.env` files first,
and the provider's retries reach the transcript through `stdlib/providers/retry_events`.
`errors` holds the usage error (exit 2) and the one-paragraph description of a failed run
(exit 1), naming a failing node by its path and its `.agent` line.

Invariants: no module imports the runtime or a provider at import time, so a usage error
costs no runtime import; nothing here is public API.
"""
