"""Keep every test away from the user's own config, data, keyring and terminal state."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

pytest_plugins = ["tests.sandbox_fixtures", "tests.postgres_fixtures"]

# Hypothesis profiles. `ci`: the same examples on every run (derandomized, no example
# database), so CI never fails on a new random draw; a failure prints the blob that replays
# it. `dev`: explores (random draws, the example database in .hypothesis/, more examples
# where a test does not fix its own count). `ci` is chosen when CI is set, else `default`
# (Hypothesis's own); `--hypothesis-profile=dev` or FREIGHT_HYPOTHESIS_PROFILE=dev chooses.
# (Hypothesis loads a "ci" profile of its own when CI is set; this one replaces it, with a
# fixed number of examples, so the choice is written here.)
settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    max_examples=100,
    print_blob=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    parent=settings.get_profile("default"),  # not the CI one Hypothesis loads when CI is set
    max_examples=500,
    print_blob=True,
    deadline=None,
)
_profile = os.environ.get("FREIGHT_HYPOTHESIS_PROFILE") or ("ci" if "CI" in os.environ else None)
if _profile:
    settings.load_profile(_profile)

_FREIGHT_ENV = (
    "FREIGHT_PROFILE",
    "FREIGHT_BASE_URL",
    "FREIGHT_API_TOKEN",
    "FREIGHT_CLIENT_ID",
    "FREIGHT_CLIENT_SECRET",
    "FREIGHT_CREDENTIAL_STORE",
    "FREIGHT_CONFIG",
)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point XDG dirs and the keyring at a temp dir; drop FREIGHT_* variables."""
    home = tmp_path / "home"
    for name, sub in (
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"),
    ):
        path = home / sub
        path.mkdir(parents=True)
        monkeypatch.setenv(name, str(path))
    for name in _FREIGHT_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
    _reset_keyring()
    yield home
    _reset_keyring()


def _reset_keyring() -> None:
    """keyring caches its backend in module globals; make each test choose afresh."""
    import keyring.core

    keyring.core._keyring_backend = None


# The fast lane (`pytest -n 2 -m "not slow"`, see docs/development.md) leaves these out: each
# of their tests takes seconds (a terminal in tmux, a browser, every screen under every theme,
# a whole batch by keyboard, an SVG snapshot), together about two thirds of the suite's time.
# A path ending in "/" is a folder. CI runs them all. Tests elsewhere may be marked
# @pytest.mark.slow one by one.
SLOW_PATHS = (
    "e2e/",  # the installed app in tmux
    "web/",  # freight serve in Chromium
    "ui/test_batch.py",  # the Batch screen: whole batches by keyboard
    "commands/test_batch.py",  # batches on the live sandbox, kill -9 and resume
    "ui/test_batch_snapshots.py",  # SVG snapshots: each renders and compares a screen
    "ui/test_book_check_snapshots.py",
    "ui/test_book_snapshots.py",
    "ui/test_quote_snapshots.py",
    "ui/test_rates_snapshots.py",
    "ui/test_result_snapshots.py",
    "ui/test_shipments_snapshots.py",
)


# And single tests of 4 s or more (measured with `pytest -n 2 --durations=0`), as
# "file::function" (every parameter of it).
SLOW_TESTS = frozenset(
    {
        "commands/test_batch_oneoff.py::test_a_one_off_set_is_not_kept_for_the_next_file_with_these_headers",
        "commands/test_batch_oneoff.py::test_a_total_row_is_set_aside_and_the_batch_can_exit_0",
        "commands/test_batch_oneoff.py::test_a_line_that_looks_hazardous_waits_for_the_users_word",
        "ui/test_quote_fields.py::test_the_rate_request_carries_every_field_and_rates_show_their_charges",
        "ui/test_quote_fields.py::test_item_details_hazmat_bad_input_is_marked_and_kept_then_fixed",
        "ui/test_quote_fields.py::test_every_new_field_survives_a_restart",
        "ui/test_quote_fields.py::test_a_wrong_nmfc_item_or_packing_group_is_marked_in_the_dialog_and_on_its_row",
        "ui/test_quote_fields.py::test_a_weekend_or_past_pickup_is_refused_at_the_field_and_kept",
        "ui/test_quote_fields.py::test_the_day_before_thanksgiving_the_default_skips_the_holiday_and_refuses_it",
        "ui/test_quote_fields.py::test_enter_in_the_item_details_moves_on_and_space_flips_a_box_that_reads_in_text",
        "ui/test_result.py::test_saving_to_a_folder_typed_by_the_user",
        "ui/test_book_fields.py::test_bad_days_and_times_are_named_at_the_field_and_kept",
        "ui/test_book_fields.py::test_every_new_field_reaches_the_booked_shipment",
        "ui/test_quote_request.py::test_ctrl_r_sends_the_form_as_typed_to_the_rates_screen",
        "ui/test_tracking.py::test_a_bol_or_tracking_number_typed_in_search_finds_the_shipment",
        "ui/test_quote.py::test_rows_add_duplicate_delete_and_move_by_keys",
        "ui/test_quote.py::test_the_draft_comes_back_after_the_app_is_gone",
        "ui/test_quote_saved.py::test_a_template_fills_the_empty_row_and_a_row_is_saved_as_one",
        "ui/test_shipments_list.py::test_paging_to_the_end_loads_every_shipment_once",
        "ui/test_shipments_scan.py::test_a_slow_scan_on_the_list_goes_through_the_search_and_leaving_clears_it",
        "test_cli.py::test_demo_works_for_the_commands",
        "test_cli.py::test_login_saves_the_environment_given",
        "batch/test_engine.py::test_429s_pause_the_whole_batch_and_every_order_is_rated",
        "sandbox/test_real_clients.py::test_wrong_values_are_400_naming_the_field_and_what_is_allowed",
        "ui/test_batch_80.py::test_the_rule_in_force_and_each_orders_service_are_in_view",
        "ui/test_batch_80.py::test_the_paperwork_folder_is_in_view_after_booking",
        "ui/test_batch_80.py::test_a_ship_date_on_christmas_eve_is_kept_with_a_warning",
        "ui/test_batch_80.py::test_the_first_enter_on_an_order_parses_no_css",
        "ui/test_batch_stations.py::test_another_stations_booking_shows_on_the_open_batch",
        "ui/test_batch_paperwork.py::test_paperwork_missing_is_shown_and_b_fetches_it",
        "ui/test_batch_results.py::test_an_xlsx_order_file_gives_an_xlsx_results_file",
        "ui/test_batch_results.py::test_the_batch_asks_where_results_go_and_refuses_freights_own_folder",
        "ui/test_canada.py::test_a_canadian_origin_is_quoted_and_booked",
        "store/test_pace.py::test_a_429_seen_by_one_station_pauses_the_others",
        "store/test_pace.py::test_three_stations_together_stay_under_the_accounts_limit",
        "store/test_pace.py::test_the_profiles_budget_is_the_pace_of_a_batch_run",
        "commands/test_batch_owed.py::test_settle_an_unknown_order_from_the_command_line",
        "ui/test_book_closed_day.py::test_booking_onto_a_closed_day_warns_and_needs_a_second_enter",
        "ui/test_quote_booked.py::test_a_restored_quote_already_booked_says_its_pro_and_offers_a_new_one",
        "ui/test_quote_booked.py::test_the_booking_marks_the_draft_off_the_event_loop",
        "ui/test_quote_location_types.py::test_the_rates_of_a_no_dock_consignee_carry_its_liftgate",
    }
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of SLOW_PATHS and SLOW_TESTS `slow`."""
    tests = Path(__file__).parent
    for item in items:
        if not item.path.is_relative_to(tests):
            continue
        where = item.path.relative_to(tests).as_posix()
        name = f"{where}::{getattr(item, 'originalname', item.name)}"
        if name in SLOW_TESTS or any(
            where == p or (p.endswith("/") and where.startswith(p)) for p in SLOW_PATHS
        ):
            item.add_marker(pytest.mark.slow)
