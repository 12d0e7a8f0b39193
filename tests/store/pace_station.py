"""One station of the shared-pace tests, run as its own process:
``python -m tests.store.pace_station STORE_URL DATA_DIR BASE_URL TOKEN COUNT``.

It sends COUNT authorised requests to the sandbox through a ``Pace`` whose slots come from the
store (as a batch run's do), a 429 pausing the account; it prints ``429s=N waited=S``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import httpx

from tui.batch.pace import Pace, each
from tui.store import open_store
from tui.store.pace import StorePace


async def main(url: str, data_dir: str, base_url: str, token: str, count: int) -> None:
    store = open_store(Path(data_dir), url)
    pace = Pace(20, shared=StorePace(store, "acme", base_url, 20))
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=30) as client:

        async def one(_: int) -> None:
            while True:
                await pace.turn()
                answer = await client.get("/shipments", params={"limit": 1})
                if answer.status_code != 429:
                    pace.ok()
                    return
                pace.limited(float(answer.headers.get("retry-after", "1")))

        await each(range(count), 4, one)
    store.close()
    print(f"429s={pace.limited_count} waited={pace.waited:.2f}")


if __name__ == "__main__":
    url, data_dir, base_url, token, count = sys.argv[1:6]
    asyncio.run(main(url, data_dir, base_url, token, int(count)))
