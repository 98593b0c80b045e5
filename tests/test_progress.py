import io

from ktsolve.progress import terminal_progress


def test_quiet_when_not_a_terminal():
    stream = io.StringIO()
    with terminal_progress("x", stream=stream) as progress:
        assert progress is None
    assert stream.getvalue() == ""


def test_draws_on_a_terminal():
    stream = io.StringIO()
    with terminal_progress("work", enabled=True, stream=stream) as progress:
        for i in range(0, 101, 10):
            progress(i, 100)
    assert "work" in stream.getvalue()
