"""Flow ids (mcp_lab/flow/ids.py): eight random hex digits, drawn by the lab's own generator."""

from __future__ import annotations

import os
import random
import re

from mcp_lab.flow.ids import new_flow_id


def test_ids_are_eight_hex_digits_and_do_not_repeat() -> None:
    ids = [new_flow_id() for _ in range(2000)]
    assert all(re.fullmatch(r"[0-9a-f]{8}", i) for i in ids)
    assert len(set(ids)) >= 1999  # 32 random bits: a repeat among 2,000 is a one-in-a-thousand event


def test_seeding_the_random_module_does_not_repeat_the_ids() -> None:
    random.seed(0)
    first = [new_flow_id() for _ in range(5)]
    random.seed(0)  # as a notebook may: two kernels seeded alike would otherwise draw the same ids
    assert [new_flow_id() for _ in range(5)] != first


def test_a_forked_child_draws_other_ids_than_its_parent() -> None:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its first ids, to the parent
        try:
            os.write(write, " ".join(new_flow_id() for _ in range(3)).encode())
        finally:
            os._exit(0)
    os.close(write)
    try:
        child = os.read(read, 100).decode().split()
    finally:
        os.close(read)
        os.waitpid(pid, 0)
    assert len(child) == 3
    assert child != [new_flow_id() for _ in range(3)]
