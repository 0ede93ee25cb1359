"""`runtime/records.py: dataclass` behaves as `dataclasses.dataclass` for every flag the
runtime uses: each case is declared twice, once per decorator, and compared."""

from __future__ import annotations

import copy
import dataclasses
import threading
from dataclasses import field
from typing import Any, ClassVar

import pytest

from agentc.runtime import records
from agentc.runtime.records import dataclass as record

FLAGS = [
    {},
    {"frozen": True},
    {"slots": True},
    {"frozen": True, "slots": True},
    {"eq": False},
    {"eq": False, "slots": True},
]


def declare(decorator: Any, **flags: Any) -> type:
    class Point:
        """A point."""

        kind: ClassVar[str] = "point"
        x: int
        y: int = 2
        tags: list[str] = field(default_factory=list)
        note: str = field(default="", repr=False, compare=False)

    return decorator(**flags)(Point)


def pair(**flags: Any) -> tuple[type, type]:
    return declare(record, **flags), declare(dataclasses.dataclass, **flags)


@pytest.mark.parametrize("flags", FLAGS, ids=str)
def test_a_record_reads_as_the_dataclass_it_replaces(flags: dict[str, Any]) -> None:
    ours, theirs = pair(**flags)
    a, b = ours(1, tags=["t"], note="n"), theirs(1, tags=["t"], note="n")
    assert repr(a) == repr(b) and repr(a).endswith(".Point(x=1, y=2, tags=['t'])")
    assert dataclasses.is_dataclass(a)
    assert [f.name for f in dataclasses.fields(a)] == ["x", "y", "tags", "note"]
    assert ours.__match_args__ == theirs.__match_args__ == ("x", "y", "tags", "note")
    assert dataclasses.asdict(a) == dataclasses.asdict(b)
    assert dataclasses.replace(a, y=5).y == 5 and dataclasses.replace(a, y=5).tags == ["t"]
    assert ours(1).tags is not ours(1).tags  # a fresh list per instance
    assert (ours(1, note="a") == ours(1, note="b")) == (theirs(1, note="a") == theirs(1, note="b"))
    assert (ours(1) == ours(2)) is False and (ours(1) == (1,)) is False
    assert (ours.__hash__ is None) == (theirs.__hash__ is None)
    params, want = ours.__dataclass_params__, theirs.__dataclass_params__
    assert (params.frozen, params.eq, params.init) == (want.frozen, want.eq, want.init)
    assert ("__slots__" in ours.__dict__) == ("__slots__" in theirs.__dict__)
    with pytest.raises(TypeError):
        ours()  # x is required, as it is for the dataclass
    with pytest.raises(TypeError):
        ours(1, 2, [], "", 5)


@pytest.mark.parametrize("flags", [f for f in FLAGS if f.get("frozen")], ids=str)
def test_a_frozen_record_refuses_assignment_hashes_by_fields_and_copies(
    flags: dict[str, Any],
) -> None:
    ours, _ = pair(**flags)
    a = ours(1, tags=[])
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
        a.x = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        del a.y
    b = declare(record, **flags)  # another class: never equal
    assert hash(ours(1, tags=())) == hash(ours(1, tags=(), note="other"))
    assert ours(1, tags=()) != b(1, tags=())
    assert copy.copy(a) == a and copy.deepcopy(a) == a and copy.deepcopy(a) is not a


def test_post_init_runs_and_init_false_fields_get_their_factory() -> None:
    @record(slots=True)
    class Counter:
        start: int
        seen: list[int] = field(default_factory=list, init=False, repr=False)

        def __post_init__(self) -> None:
            self.seen.append(self.start)

    assert Counter(3).seen == [3]
    with pytest.raises(TypeError):
        Counter(3, [1])  # type: ignore[call-arg]  # not a parameter


def test_subclasses_inherit_fields_and_frozen_flags_must_agree() -> None:
    @record(frozen=True, slots=True)
    class Base:
        a: int

    @record(frozen=True, slots=True)
    class Child(Base):
        b: str = "b"

    assert repr(Child(1)).endswith(".Child(a=1, b='b')") and Child(1) != Base(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Child(1).b = "c"
    with pytest.raises(TypeError, match="non-frozen"):

        @record
        class Loose(Base):
            c: int = 0


def test_a_class_that_defines_its_own_methods_is_left_to_dataclass() -> None:
    @record(frozen=True)
    class Own:
        a: int

        def __repr__(self) -> str:
            return "own"

    assert repr(Own(1)) == "own" and "_rec_names" not in Own.__dict__


def test_first_constructions_on_two_threads_both_see_their_init() -> None:
    made = [declare(record, frozen=True, slots=True) for _ in range(20)]
    out: list[Any] = []
    threads = [threading.Thread(target=lambda c=c: out.append(c(1))) for c in made]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(p.x for p in out) == [1] * 20 and not records._PENDING
