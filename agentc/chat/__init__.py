"""The rooms of `agentc chat` (agentc/cmd_chat.py is the command itself).

Input: the parsed command line, from `cmd_chat`. Output: a conversation on one thread,
turn by turn, and the chat's exit code.

Rooms, in the order a chat uses them: `reader` (the user's lines: a terminal with line
editing, or a script piped to stdin) → `session` (the graph bound to its thread: one turn
at a time, streamed, with review pauses answered inline) → `view` (how a turn reads while
it streams: the model's text, tool calls and results, what a graph's nodes wrote) →
`history` (what `/undo` goes back to, read from the thread's saved states) →
`commands` (the prompt loop and its slash commands).

Invariants: the runner's rooms (`agentc/runner/`) are reused, never copied: the input is
read as `agentc run` reads it, pauses are answered by `runner.pauses`, messages are
rendered by `runner.lines`; nothing here is public API.
"""
