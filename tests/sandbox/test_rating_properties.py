"""Properties of the rating engine: exact sums, and more weight never costs less."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui.domain.freight_class import FREIGHT_CLASSES
from tui.domain.locations import LOCATION_TYPES
from tui.sandbox.geo import lookup
from tui.sandbox.rating.carriers import active_carriers
from tui.sandbox.rating.engine import rate_all
from tui.sandbox.rating.model import Item, RateRequest

ZIPS = ("60601", "30303", "75201", "77002", "98101", "97201", "10001", "19103", "90001",
        "46204", "33101", "80202", "99501", "02108", "55401")  # fmt: skip
DIESEL = Decimal("3.65")
DAY = "2026-03-10"

items = st.builds(
    Item,
    weight=st.decimals(min_value=1, max_value=3000, places=1),
    length=st.integers(min_value=6, max_value=96).map(Decimal),
    width=st.integers(min_value=6, max_value=48).map(Decimal),
    height=st.integers(min_value=4, max_value=96).map(Decimal),
    quantity=st.integers(min_value=1, max_value=6),
    freight_class=st.sampled_from(FREIGHT_CLASSES),
    package=st.sampled_from(("pallet", "box", "crate")),
)


@st.composite
def requests(draw: st.DrawFn) -> RateRequest:
    origin = lookup(draw(st.sampled_from(ZIPS)))
    dest = lookup(draw(st.sampled_from(ZIPS)))
    assert origin is not None
    assert dest is not None
    return RateRequest(
        origin,
        dest,
        draw(st.sampled_from(tuple(LOCATION_TYPES))),
        draw(st.sampled_from(tuple(LOCATION_TYPES))),
        tuple(draw(st.lists(items, min_size=1, max_size=3))),
    )


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(request=requests())
def test_charges_sum_to_total_to_the_cent(request: RateRequest) -> None:
    for rate in rate_all(request, active_carriers(chaos=True), DIESEL, DAY):
        if rate.status != "ok":
            assert rate.message
            continue
        assert rate.total == sum(c.amount for c in rate.charges)
        assert all(c.amount == c.amount.quantize(Decimal("0.01")) for c in rate.charges)
        assert rate.total > 0
        assert next(c for c in rate.charges if c.name == "discount").amount <= 0


@SETTINGS
@given(
    request=requests(),
    index=st.integers(min_value=0, max_value=2),
    extra=st.decimals(min_value=Decimal("0.1"), max_value=2000, places=1),
)
def test_more_weight_never_lowers_the_total(
    request: RateRequest, index: int, extra: Decimal
) -> None:
    position = index % len(request.items)
    heavier_item = dataclasses.replace(
        request.items[position], weight=request.items[position].weight + extra
    )
    heavier = dataclasses.replace(
        request,
        items=(*request.items[:position], heavier_item, *request.items[position + 1 :]),
    )
    carriers = active_carriers(chaos=False)
    before = {
        (r.carrier_code, r.service_type): r.total
        for r in rate_all(request, carriers, DIESEL, DAY)
        if r.status == "ok"
    }
    after = {
        (r.carrier_code, r.service_type): r.total
        for r in rate_all(heavier, carriers, DIESEL, DAY)
        if r.status == "ok"
    }
    for key in before.keys() & after.keys():
        assert after[key] >= before[key], key


@SETTINGS
@given(request=requests())
def test_same_request_same_day_same_rates(request: RateRequest) -> None:
    carriers = active_carriers(chaos=True)
    first = rate_all(request, carriers, DIESEL, DAY)
    second = rate_all(request, carriers, DIESEL, DAY)
    assert [(r.carrier_code, r.service_type, r.total) for r in first] == [
        (r.carrier_code, r.service_type, r.total) for r in second
    ]
