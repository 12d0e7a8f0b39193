"""The QWDL chaos carrier appears only when asked for, and misbehaves as documented."""

from __future__ import annotations

from datetime import timedelta

from tests.sandbox.conftest import Clock, client_for, rate_body
from tests.sandbox.test_errors import assert_error
from tui.sandbox import SandboxConfig, create_app


async def test_chaos_carrier_only_when_enabled(clock: Clock) -> None:
    calm = create_app(SandboxConfig(shipments=0, now=clock.now))
    chaotic = create_app(SandboxConfig(shipments=0, now=clock.now, chaos=True))
    try:
        async with client_for(calm, "demo.demo-secret") as http:
            quote = (await http.post("/rates", json=rate_body())).json()
            assert "QWDL" not in {r["carrierCode"] for r in quote["rates"]}
        async with client_for(chaotic, "demo.demo-secret") as http:
            answers = []
            for weight in range(300, 1300, 50):
                quote = (await http.post("/rates", json=rate_body(weight=weight))).json()
                qwdl = next(r for r in quote["rates"] if r["carrierCode"] == "QWDL")
                answers.append(qwdl["status"])
                if qwdl["status"] == "ok":
                    booked_quote, booked_rate = quote, qwdl
            assert "ok" in answers
            assert "unavailable" in answers
            clock.advance(timedelta(minutes=3))
            response = await http.post(
                "/book", json={"id": booked_quote["id"], "rateId": booked_rate["id"]}
            )
            assert_error(response, 410, "QUOTE_EXPIRED")
    finally:
        calm.close()
        chaotic.close()


async def test_in_memory_sandbox_starts_empty_when_asked() -> None:
    app = create_app(SandboxConfig(db_path=None, shipments=0))
    try:
        async with client_for(app, "demo.demo-secret") as http:
            body = (await http.get("/shipments")).json()
            assert body == {"shipments": []}
    finally:
        app.close()
