"""agentc: a graph-definition language for LLM agents."""

__version__ = "0.1.0"
