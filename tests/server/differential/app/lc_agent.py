"""The reference side of the agent twin: LangChain's create_agent, served by `langgraph dev`.

The model is ChatOpenAI pointed at the scripted fake provider through OPENAI_BASE_URL (the
fixture sets it); the checkpointer is the server's. Its twin is `calc` in twin.agent.
"""

from __future__ import annotations

import sys
from pathlib import Path

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain_openai import ChatOpenAI

sys.path.insert(0, str(Path(__file__).parent))  # langgraph dev loads this file by path

from diff_tools import add  # noqa: E402

graph = create_agent(
    model=ChatOpenAI(model="gpt-4o-mini"),
    tools=[add],
    system_prompt="You are a careful calculator.",
    middleware=[HumanInTheLoopMiddleware(interrupt_on={"add": True})],
)
