"""SQLAlchemy's ORM, imported after the first frame, is imported on the UI thread while no
worker runs: its package registers how to inspect any object before its exceptions module
is whole, and a statement built in another thread meanwhile failed ("partially initialized
module 'sqlalchemy.orm.exc'"): the battle set-up typed right after start-up ended the app.
Run in a fresh process, where nothing has imported the ORM yet."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from campaigns.session import CampaignSession

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import asyncio, importlib.abc, sys, threading
seen = []

class Watch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "sqlalchemy.orm":
            workers = [w for w in app.workers if not w.is_finished] if "app" in globals() else []
            seen.append((threading.current_thread() is threading.main_thread(), len(workers)))
        return None

sys.meta_path.insert(0, Watch())
from campaigns.session import CampaignSession
from tui.app import AdjutantApp

async def main():
    global app
    app = AdjutantApp(CampaignSession.open(sys.argv[1]), prepare=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(600):
            if app.screens_prepared:
                break
            await pilot.pause(0.05)
        print(app.screens_prepared, seen)

asyncio.run(main())
"""


def test_the_orm_is_imported_on_the_ui_thread_with_no_worker_running(tmp_path: Path):
    path = tmp_path / "s.campaign"
    CampaignSession.new("spring1813", path, seed=1).close()
    env = {"ADJUTANT_CONFIG_DIR": str(tmp_path / "cfg"), "ADJUTANT_LOG_DIR": str(tmp_path / "log")}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(path)], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True [(True, 0)]", done.stdout
