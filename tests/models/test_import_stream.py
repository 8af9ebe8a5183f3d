"""An export is imported row by row (models.import_stream): same campaign, same refusals, flat memory."""

from __future__ import annotations

import collections
import io
import json
import tracemalloc
from pathlib import Path

import orjson
import pytest

from models import dumps, loads, open_campaign
from models.errors import CampaignFileError
from models.import_stream import NotLaidOut, import_export, load_stream
from tests import hostile
from tests.campaigns.test_log_memory import campaign_with_events
from tests.test_hostile_files import played


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return played(tmp_path_factory.mktemp("stream") / "real.campaign")


def laid_out(document: object) -> bytes:
    """A document in the layout `adjutant export` writes (a lone surrogate escaped: it has no UTF-8)."""
    try:
        return (json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()
    except UnicodeEncodeError:
        return (json.dumps(document, sort_keys=True, indent=2) + "\n").encode()


def exported(path: Path) -> str:
    with open_campaign(path) as store:
        return dumps(store)


def test_an_export_is_read_row_by_row_and_gives_the_same_campaign(real: Path, campaign_target: str) -> None:
    text = exported(real)
    with load_stream(campaign_target, io.BytesIO(text.encode())) as copy:  # NotLaidOut would fail here
        assert dumps(copy) == text


def test_another_layout_is_imported_as_one_document(real: Path, tmp_path: Path) -> None:
    compact = orjson.dumps(orjson.loads(exported(real)))
    with pytest.raises(NotLaidOut):
        load_stream(tmp_path / "never.campaign", io.BytesIO(compact))
    assert not (tmp_path / "never.campaign").exists()
    with import_export(tmp_path / "copy.campaign", io.BytesIO(compact)) as copy:
        assert dumps(copy) == exported(real)


def test_every_hostile_export_in_the_export_layout_gets_the_verdict_of_the_whole_document(
    real: Path, tmp_path: Path
) -> None:
    seen = compare_exports(real, tmp_path)
    assert seen["refused"] + seen["taken"] > 20  # most were read row by row, not handed to the whole-document reading


def compare_exports(real: Path, folder: Path, mangled: int = 20) -> collections.Counter[str]:
    """Each hostile export (tests/hostile.py), laid out as `adjutant export` writes it, read row
    by row and as one document: refused by both, or taken by both."""
    good = orjson.loads(exported(real))
    seen: collections.Counter[str] = collections.Counter()
    for number, (what, text) in enumerate(hostile.hostile_exports(good, mangled=mangled)):
        try:
            document = json.loads(text)
        except (ValueError, RecursionError):
            continue  # not JSON: refused before any row is read, the same way for both
        text = laid_out(document)
        try:
            by_rows = _verdict(lambda target, text=text: load_stream(target, io.BytesIO(text)), folder / f"r{number}")
        except NotLaidOut:
            continue  # handed to the whole document's reading, by construction the same verdict
        whole = _verdict(lambda target, text=text: loads(target, text), folder / f"w{number}")
        assert (whole is None) == (by_rows is None), f"{what}: {whole!r} / {by_rows!r}"
        seen["taken" if whole is None else "refused"] += 1
    return seen


def _verdict(make, target: Path) -> str | None:
    try:
        make(target).close()
    except CampaignFileError as error:
        assert "\n" not in str(error)
        assert not target.exists()
        return str(error)
    return None


def test_a_repeated_key_and_a_missing_reference_are_named(real: Path, tmp_path: Path) -> None:
    document = orjson.loads(exported(real))
    units = document["tables"]["unit"]
    units.insert(1, dict(units[0]))
    with pytest.raises(CampaignFileError, match="row 2 of 'unit' repeats the key of another row"):
        load_stream(tmp_path / "a.campaign", io.BytesIO(laid_out(document)))
    del units[1]
    units[0]["general"] = "nobody"
    with pytest.raises(CampaignFileError, match="names general 'nobody', which is not in table 'general'"):
        load_stream(tmp_path / "b.campaign", io.BytesIO(laid_out(document)))
    assert not list(tmp_path.glob("*.campaign"))


def peak_while_importing(export: bytes, target: Path) -> int:
    tracemalloc.start()
    load_stream(target, io.BytesIO(export)).close()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def test_importing_ten_times_the_events_takes_no_more_memory(tmp_path: Path) -> None:
    # Both more than a batch (READ_BATCH rows are checked and written at a time): with
    # 300 events the small one read less than a batch, and the comparison measured the
    # batch filling up, hidden only while every import also reflected the schema.
    small = exported(campaign_with_events(tmp_path / "small.campaign", 1_200)).encode()
    big = exported(campaign_with_events(tmp_path / "big.campaign", 12_000)).encode()
    load_stream(tmp_path / "warm.campaign", io.BytesIO(small)).close()  # caches filled before measuring (tracemalloc, which slows every allocation, not on for it)
    small_peak = peak_while_importing(small, tmp_path / "small-copy.campaign")
    big_peak = peak_while_importing(big, tmp_path / "big-copy.campaign")
    assert len(big) > 5 * len(small)
    assert big_peak < small_peak * 1.5 + 512_000, (small_peak, big_peak)
