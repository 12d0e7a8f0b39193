"""Against a real uvicorn on loopback: concurrency, restarts, and the `freight sandbox` command."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.sandbox.conftest import first_ok, rate_body
from tests.sandbox.test_documents import assert_valid_pdf
from tui.sandbox import SandboxConfig, start_in_thread
from tui.sandbox.threaded import RunningSandbox

CLIENTS = 8


def http(sandbox: RunningSandbox) -> httpx.Client:
    return httpx.Client(
        base_url=sandbox.base_url,
        headers={"Authorization": f"Bearer {sandbox.token}"},
        timeout=30,
    )


def run_threads(target: Any, count: int) -> list[Any]:
    results: list[Any] = [None] * count
    barrier = threading.Barrier(count)

    def work(index: int) -> None:
        barrier.wait()
        results[index] = target(index)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_full_flow_over_real_http(live_sandbox: RunningSandbox) -> None:
    assert live_sandbox.base_url.startswith("http://127.0.0.1:")
    with http(live_sandbox) as client:
        quote = client.post("/rates", json=rate_body()).json()
        booking = client.post(
            "/book", json={"id": quote["id"], "rateId": first_ok(quote)["id"]}
        ).json()
        assert booking["documents"][0]["url"].startswith(live_sandbox.base_url + "/documents/")
        pdf = client.get(booking["documents"][0]["url"])
        assert assert_valid_pdf(pdf.content) == 1
        detail = client.get(f"/shipments/{booking['shipmentId']}")
        assert detail.json()["proNumber"] == booking["proNumber"]
        bad = client.post("/rates", content=b"{oops", headers={"Content-Type": "application/json"})
        assert bad.status_code == 400
        assert bad.json()["name"] == "MALFORMED_JSON"
        assert client.get("/nowhere").json()["name"] == "NOT_FOUND"


def test_eight_concurrent_bookers_lose_nothing(live_sandbox: RunningSandbox) -> None:
    def book_many(index: int) -> list[str]:
        booked = []
        with http(live_sandbox) as client:
            for lane in (("60601", "30303"), ("75201", "77002"), ("10001", "19103")):
                body = rate_body(*lane, weight=500 + index)
                quote = client.post("/rates", json=body).json()
                for rate in [r for r in quote["rates"] if r["status"] == "ok"][:2]:
                    response = client.post("/book", json={"id": quote["id"], "rateId": rate["id"]})
                    assert response.status_code == 201, response.text
                    booked.append(response.json()["shipmentId"])
        return booked

    results = run_threads(book_many, CLIENTS)
    ids = [shipment for batch in results for shipment in batch]
    assert len(ids) == CLIENTS * 6
    assert len(set(ids)) == len(ids)
    with http(live_sandbox) as client:
        found = []
        token = None
        while True:
            params: dict[str, Any] = {"limit": 200}
            if token:
                params["continuationToken"] = token
            page = client.get("/shipments", params=params).json()
            found += page["shipments"]
            token = page.get("continuationToken")
            if not token:
                break
    assert set(ids) <= {s["id"] for s in found}
    pros = [s["proNumber"] for s in found if s["proNumber"]]
    assert len(pros) == len(set(pros))


def test_eight_clients_booking_the_same_rate_get_one_shipment(
    live_sandbox: RunningSandbox,
) -> None:
    with http(live_sandbox) as client:
        quote = client.post("/rates", json=rate_body()).json()
    body = {"id": quote["id"], "rateId": first_ok(quote)["id"], "schedulePickup": True}

    def attempt(_index: int) -> tuple[int, str]:
        with http(live_sandbox) as client:
            response = client.post("/book", json=body)
            return response.status_code, response.json()["shipmentId"]

    results = run_threads(attempt, CLIENTS)
    assert Counter(status for status, _ in results) == {201: 1, 409: CLIENTS - 1}
    assert len({shipment for _, shipment in results}) == 1


def test_restart_keeps_the_data(sandbox_config: SandboxConfig) -> None:
    with start_in_thread(sandbox_config) as first, http(first) as client:
        quote = client.post("/rates", json=rate_body()).json()
        rate = first_ok(quote)
        booking = client.post("/book", json={"id": quote["id"], "rateId": rate["id"]}).json()
    config = dataclasses.replace(sandbox_config, shipments=5)  # not reseeded: the DB exists
    with start_in_thread(config) as second, http(second) as client:
        detail = client.get(f"/shipments/{booking['shipmentId']}").json()
        assert detail["proNumber"] == booking["proNumber"]
        again = client.post("/book", json={"id": quote["id"], "rateId": rate["id"]})
        assert again.status_code == 409
        everything = client.get("/shipments", params={"limit": 200}).json()
        assert len(everything["shipments"]) == 200
        assert "continuationToken" in everything
        new_quote = client.post("/rates", json=rate_body()).json()
        newer = client.post(
            "/book", json={"id": new_quote["id"], "rateId": first_ok(new_quote)["id"]}
        ).json()
        assert newer["proNumber"] != booking["proNumber"]
    assert not second.running


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
def test_freight_sandbox_command_serves_until_ctrl_c(tmp_path: Path) -> None:
    db = tmp_path / "cli.sqlite3"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tui",
            "sandbox",
            "--port",
            "0",
            "--db",
            str(db),
            "--shipments",
            "50",
            "--clock-speed",
            "120",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        lines = []
        for line in process.stdout:
            lines.append(line)
            if line.startswith("Press Ctrl-C"):
                break
        text = "".join(lines)
        url = next(w for w in text.split() if w.startswith("http://127.0.0.1:"))
        assert "demo.demo-secret" in text
        response = httpx.get(
            url + "/shipments", headers={"Authorization": "Bearer demo.demo-secret"}
        )
        assert len(response.json()["shipments"]) == 50
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=20)
        assert process.returncode == 0, err
        assert "Traceback" not in err
        assert db.exists()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_busy_port_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse
    import socket

    from tui.sandbox.serve import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        args = argparse.Namespace(
            host="127.0.0.1", port=port, db=str(tmp_path / "x.sqlite3"), shipments=5, seed=7,
            clock_speed=60.0, rate_limit=20.0,
        )  # fmt: skip
        assert main(args) == 1
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite3").exists()
