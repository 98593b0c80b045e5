"""Censuses on a Dask LocalCluster of two worker processes: the pool's answers, and no result lost."""

from __future__ import annotations

import os
import signal

import pytest

distributed = pytest.importorskip("distributed")

from ktsolve.census import census, read_results  # noqa: E402

from census_helpers import answers, index_counts, worker_pids  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as c:
        yield c


def test_cluster_and_pool_give_the_same_answers(tmp_path, cluster):
    on_dask = census("6x6", remove=2, closed="both", output=tmp_path / "dask.jsonl", seed=8,
                     scheduler=cluster.scheduler_address)
    on_pool = census("6x6", remove=2, closed="both", output=tmp_path / "pool.jsonl", seed=8, workers=2)
    assert on_dask.workers == 2 and on_dask.exit_code == 0
    assert answers(tmp_path / "dask.jsonl") == answers(tmp_path / "pool.jsonl")
    runs = read_results(tmp_path / "dask.jsonl").runs
    assert runs[0]["scheduler"] == cluster.scheduler_address
    assert on_dask.summary.status == on_pool.summary.status


def test_a_client_can_be_passed_and_a_census_resumed_on_the_cluster(tmp_path, cluster):
    path = tmp_path / "r.jsonl"
    sent = []

    def progress(done, total):
        if done >= 20 and not sent:
            sent.append(done)
            os.kill(os.getpid(), signal.SIGINT)

    first = census("6x6", remove=2, output=path, seed=3, workers=2, batch=4, progress=progress)
    assert first.interrupted
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        second = census("6x6", remove=2, output=path, scheduler=client)
        assert client.status == "running"  # a client the caller owns stays open
    assert second.exit_code == 0
    counts = index_counts(path)
    assert sorted(counts) == list(range(first.questions)) and set(counts.values()) == {1}


def test_a_worker_killed_on_the_cluster_loses_no_result(tmp_path, cluster):
    path = tmp_path / "r.jsonl"
    killed = []
    mine = os.getpid()

    def progress(done, total):
        if not killed:
            pids = [p for p in worker_pids() if p not in worker_pids(mine)]  # the Dask workers' processes
            if pids:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

    rep = census("8x8", remove=2, closed="both", output=path, seed=6, scheduler=cluster.scheduler_address,
                 batch=12, progress=progress)
    assert killed and not rep.interrupted
    counts = index_counts(path)
    assert sorted(counts) == list(range(rep.questions)) and set(counts.values()) == {1}
    got = read_results(path).records
    lost = [r for r in got.values() if r["status"] == "unknown"]
    assert len(lost) <= 1 and all("worker process died" in r["reason"] for r in lost)
