"""`agentc test`: behaviour tests of agents, written in the language beside the agent.

Input: `NAME.test.agent` files (or any `.agent` file with `test` blocks). Output: per
test, passed or its failures, located as diagnostics are. Rooms: `discover` (which files),
`run` (each test's statements in order, through `session`: the graph bound in memory, the
model source of the test), `decide` (answers to pauses), `expect` with `values` (what an
expectation means), `report` (failure text, summary, JUnit XML), `pytest_plugin` (the same
tests as pytest items). The statements' vocabulary and the checks `agentc check` runs on
test blocks are compiler/testblocks.py's.
"""
