"""Test doubles that speak real wire formats on 127.0.0.1: a fake model provider
(`fake_provider`: OpenAI and Anthropic endpoints, streaming, scripted faults; its
bodies are written by `fake_wire`) and a fake
MCP server (`fake_mcp`). Tests, benchmarks and CI start them; agents never import them.

    python -m agentc.testing.fake_provider --port 0
"""
