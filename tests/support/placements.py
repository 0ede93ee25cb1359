"""What the sync-placement rule (`runtime/inline.py`) was given and decided, recorded
in a test, so E5 tests assert on the rule's inputs, not on one timing sample."""

from __future__ import annotations


def placements(monkeypatch):
    """What the placement rule was given and decided, call by call: ("call", inline) as each
    sync call starts, ("observe", cpu_ns, blocked, inline) for each sample it counted."""
    from agentc.runtime.inline import SyncPolicy

    seen: list[tuple] = []
    call, observe = SyncPolicy.call, SyncPolicy.observe

    def counted_call(self, fn, args, kwargs, inline):
        seen.append(("call", inline))
        return call(self, fn, args, kwargs, inline)

    def counted_observe(self, cpu_ns, blocked, inline):
        seen.append(("observe", cpu_ns, blocked, inline))
        return observe(self, cpu_ns, blocked, inline)

    monkeypatch.setattr(SyncPolicy, "call", counted_call)
    monkeypatch.setattr(SyncPolicy, "observe", counted_observe)
    return seen


def replayed(seen: list[tuple]) -> list[bool]:
    """The rule replayed on the samples it saw: where each call had to run."""
    from agentc.runtime.inline import Placement, SyncPolicy

    policy, where = SyncPolicy(), []
    for event in list(seen):  # a copy: the replay's own samples are counted too
        if event[0] == "call":
            where.append(policy.placement is Placement.INLINE)
        else:
            policy.observe(*event[1:])
    return where
