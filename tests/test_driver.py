"""The driver: chunks, budgets, the clock of a whole call, and Ctrl-C."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from ktsolve.driver import (
    Deadline,
    Stopped,
    call_guarded,
    drive,
    interrupt_guard,
    interrupted,
)


def _ctrl_c():
    os.kill(os.getpid(), signal.SIGINT)


def test_drive_stops_at_the_unit_budget_and_reports_progress():
    seen = []
    out = drive(lambda k: (k, False), units=100, progress=lambda d, t: seen.append((d, t)), first=3)
    assert out.done == 100 and out.reason == "budget"
    assert seen[-1] == (100, 100) and all(t == 100 for _, t in seen)


def test_drive_stops_at_its_time_limit_near_the_limit():
    def step(k):
        time.sleep(0.001 * k)
        return k, False

    t0 = time.perf_counter()
    out = drive(step, units=None, time_limit=0.3)
    took = time.perf_counter() - t0
    assert out.reason == "time limit"
    assert 0.3 <= took < 0.3 + 0.2


def test_drive_obeys_the_call_deadline_and_its_extension():
    deadline = Deadline(0.2)
    out = drive(lambda k: (time.sleep(0.01) or 1, False), units=None, time_limit=10, deadline=deadline)
    assert out.reason == "time limit" and deadline.expired()
    deadline.extend(0.2)
    assert not deadline.expired() and 0 < deadline.remaining() <= 0.2
    out = drive(lambda k: (time.sleep(0.01) or 1, False), units=None, deadline=deadline)
    assert out.reason == "time limit" and deadline.expired()


def test_drive_reports_the_position_the_method_gives():
    seen = []
    drive(lambda k: (k, False), units=10, progress=lambda d, t: seen.append((d, t)),
          position=lambda done: (done * 2, 20), first=10)
    assert seen == [(20, 20)]


def test_drive_refuses_a_step_that_does_nothing():
    with pytest.raises(RuntimeError, match="ran no unit"):
        drive(lambda k: (0, False), units=5)


def test_ctrl_c_inside_drive_ends_the_run_as_interrupted():
    calls = []

    def step(k):
        calls.append(k)
        if len(calls) == 3:
            _ctrl_c()
        return k, False

    out = drive(step, units=None)
    assert out.reason == "interrupted" and out.interrupted and len(calls) == 3
    # the handler is gone: Python's default one is back
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_finished_step_after_ctrl_c_is_still_interrupted():
    def step(k):
        _ctrl_c()
        return 1, True

    assert drive(step, units=None).reason == "interrupted"


def test_nested_guards_share_ctrl_c_and_later_work_starts_stopped():
    with interrupt_guard() as outer:
        with interrupt_guard() as inner:
            assert not interrupted()
            _ctrl_c()
            assert inner.set and outer.set and interrupted()
        with interrupt_guard() as later:
            assert later.set
        # a drive started after the Ctrl-C stops before its first chunk
        out = drive(lambda k: (k, False), units=None)
        assert out.reason == "interrupted" and out.done == 0
    assert not interrupted()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_second_ctrl_c_raises_keyboard_interrupt():
    with pytest.raises(KeyboardInterrupt):
        with interrupt_guard() as flag:
            _ctrl_c()
            assert flag.set
            _ctrl_c()


def test_the_guard_calls_on_interrupt():
    stopped = []
    with interrupt_guard(on_interrupt=lambda: stopped.append(1)):
        _ctrl_c()
    assert stopped == [1]


def test_deadline_check_names_the_phase_and_the_reason():
    d = Deadline(None)
    d.check("anything")  # no limit, no Ctrl-C: nothing happens
    with pytest.raises(Stopped) as exc:
        Deadline(1e-9, t0=0.0).check("building the knight graph")
    stop = exc.value
    assert stop.reason == "time limit" and not stop.interrupted
    assert stop.stats() == {"reason": "the time limit ran out while building the knight graph",
                            "interrupted": False}
    with interrupt_guard():
        _ctrl_c()
        with pytest.raises(Stopped) as exc:
            Deadline(100).check("walking")
    assert exc.value.interrupted and exc.value.stats()["reason"] == "interrupted (Ctrl-C) while walking"


def test_deadline_of_and_share():
    d = Deadline(4.0)
    assert Deadline.of(d) is d
    assert Deadline.of(None).time_limit is None and Deadline.of(2.0).time_limit == 2.0
    assert d.share(0.5, cap=1.0) == 1.0 and 1.9 < d.share(0.5) <= 2.0


def test_call_guarded_returns_the_value_and_raises_the_error():
    assert call_guarded(lambda: 6 * 7) == (42, False)
    with pytest.raises(ZeroDivisionError):
        call_guarded(lambda: 1 / 0)


def test_call_guarded_stops_blocking_work_on_ctrl_c():
    """The work blocks its thread (as CP-SAT's solve does); Ctrl-C reaches on_interrupt at once."""
    release = threading.Event()
    threading.Timer(0.2, _ctrl_c).start()
    t0 = time.perf_counter()
    value, was_interrupted = call_guarded(lambda: release.wait(20) and "stopped", on_interrupt=release.set)
    assert was_interrupted and value == "stopped"
    assert time.perf_counter() - t0 < 5


def test_guards_outside_the_main_thread_change_nothing():
    out = {}

    def work():
        with interrupt_guard() as flag:
            out["set"] = flag.set
        out["call"] = call_guarded(lambda: 1)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert out == {"set": False, "call": (1, False)}


def test_a_cancelled_clock_reads_as_run_out_everywhere():
    import threading

    from ktsolve.driver import Deadline, Stopped, begin, call_guarded, drive

    cancel = threading.Event()
    d = Deadline(None, cancel=cancel)
    assert not d.expired() and d.remaining() is None
    part, (dflt, _) = d.part(0.5, cap=60), begin(d, 1, default=30)
    assert part.cancel is cancel and dflt.cancel is cancel and dflt.time_limit == 30
    cancel.set()
    assert d.expired() and d.remaining() == 0.0 and part.expired() and dflt.budget() == 1e-9
    with pytest.raises(Stopped):
        d.check("racing")
    assert drive(lambda k: (k, False), units=None, deadline=Deadline(None, cancel=cancel)).reason == "time limit"


def test_call_guarded_stops_a_blocking_call_once_the_race_is_settled():
    import threading

    from ktsolve.driver import call_guarded

    cancel, stop = threading.Event(), threading.Event()
    box = {}

    def lane():  # outside the main thread, as a racing lane is
        box["out"] = call_guarded(lambda: stop.wait(60), on_interrupt=stop.set, cancel=cancel, poll=0.01)

    t = threading.Thread(target=lane)
    t.start()
    cancel.set()
    t.join(60)
    assert not t.is_alive() and box["out"] == (True, False)  # stopped by on_interrupt, not reported as Ctrl-C
