"""The standard library: LangChain `create_agent` semantics on the agentc runtime.

Input: the `ir.Program` the compiler wrote (its agents, tools, schemas, middleware) and, at
run time, the runtime's `RunContext`. Output: the nodes, routers, reducers and tools the
IR's import keys name (`agentc.stdlib.agent:model_node`, `agentc.stdlib.messages:
add_messages`, …). Invariants: imports go down — `messages`, `tools`, `models`,
`routing` and `structured_output` sit below `middleware/`, which sits below `agent/`
(the agent's nodes), which sits below `nodes.py` (graph-block nodes); `providers/` alone
speaks HTTP.
"""
