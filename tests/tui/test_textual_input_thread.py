"""The input thread of the app in a real terminal ends as soon as input is disabled
(tui.textual_private.driver_woken_at_exit): quitting no longer waits for the thread's next
look at the terminal. A Textual upgrade that makes its selector otherwise, or reads the
terminal in another way, fails here by name."""

from __future__ import annotations

import os
import selectors
import signal
import threading
from collections.abc import Iterator

import pytest
from textual.app import App
from textual.drivers.headless_driver import HeadlessDriver
from textual.drivers.linux_driver import LinuxDriver

from tui.textual_private import driver_woken_at_exit

WAITED = 60.0  # seconds each of the thread's looks at the terminal waits here, instead of Textual's tenth


@pytest.fixture
def terminal() -> Iterator[tuple[int, int]]:
    """A pipe for the driver's terminal: nothing is typed on it unless the test writes."""
    read, write = os.pipe()
    yield read, write
    os.close(read)
    os.close(write)


@pytest.fixture
def looks(monkeypatch: pytest.MonkeyPatch) -> list[threading.Event]:
    """Every look of a selector at what it watches, made to wait WAITED seconds at most: an Event
    set as each look starts. A look that is not woken keeps its thread for a minute."""
    started: list[threading.Event] = []
    textual_select = selectors.SelectSelector.select

    def select(self: selectors.SelectSelector, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        started.append(threading.Event())
        started[-1].set()
        return textual_select(self, WAITED if timeout is not None else None)

    monkeypatch.setattr(selectors.SelectSelector, "select", select)
    return started


def new_driver() -> LinuxDriver:
    """A driver as the app makes it (in its event loop: the tests that call this are async)."""
    handlers = signal.getsignal(signal.SIGTSTP), signal.getsignal(signal.SIGCONT)
    try:
        made = driver_woken_at_exit(LinuxDriver)(App())
    finally:  # the driver takes ctrl+z and its resume for its app: given back to the test worker
        signal.signal(signal.SIGTSTP, handlers[0])
        signal.signal(signal.SIGCONT, handlers[1])
    assert isinstance(made, LinuxDriver)
    return made


def reading(driver: LinuxDriver, looks: list[threading.Event]) -> threading.Thread:
    """The driver's input thread, started and waiting in its first look at the terminal."""
    before = len(looks)
    thread = threading.Thread(target=driver.run_input_thread, daemon=True)
    thread.start()
    for _ in range(1000):
        if len(looks) > before:
            break
        thread.join(0.01)
    assert len(looks) > before, "the input thread never looked at the terminal through selectors.SelectSelector"
    return thread


def stopped(driver: LinuxDriver, thread: threading.Thread) -> None:
    """Input disabled as LinuxDriver.disable_input does it: the thread must end at once."""
    driver.exit_event.set()
    thread.join(10)  # not woken, it would wait WAITED in each of its last two looks
    assert not thread.is_alive(), "the input thread did not end when input was disabled"
    driver.exit_event.clear()


def test_only_a_real_terminal_s_driver_is_replaced():
    assert driver_woken_at_exit(HeadlessDriver) is HeadlessDriver
    woken = driver_woken_at_exit(LinuxDriver)
    assert woken is not LinuxDriver and issubclass(woken, LinuxDriver)
    assert driver_woken_at_exit(LinuxDriver) is woken  # made once


def waits(thread: threading.Thread, looks: list[threading.Event]) -> None:
    """The thread waits for the terminal with nothing typed, rather than looking again and again."""
    before = len(looks)
    for _ in range(20):
        thread.join(0.01)
    assert thread.is_alive() and len(looks) - before <= 1, f"the input thread looked {len(looks) - before} times with nothing typed"


async def test_the_input_thread_ends_when_input_is_disabled_and_again_after_a_resume(terminal, looks):
    driver = new_driver()
    read, write = terminal
    driver.fileno = read
    stopped(driver, reading(driver, looks))
    # Input enabled again: the new thread waits, not woken by the last exit's wake-up over and over.
    thread = reading(driver, looks)
    waits(thread, looks)
    stopped(driver, thread)
    driver.close()  # a suspend (ctrl+z) is stop_application_mode, then close: the resume starts a new thread
    thread = reading(driver, looks)  # the pipe made again, not the closed one
    waits(thread, looks)
    stopped(driver, thread)
    driver.close()
    assert getattr(driver.exit_event, "read", "no pipe") is None  # the wake-up's pipe closed with the driver


async def test_what_is_typed_still_reaches_the_app(terminal, looks, monkeypatch: pytest.MonkeyPatch):
    """The wake-up is not input: only the terminal's bytes are read and parsed into keys."""
    driver = new_driver()
    read, write = terminal
    driver.fileno = read
    keys: list[str] = []
    monkeypatch.setattr(driver, "process_message", lambda message: keys.append(getattr(message, "key", "?")))
    thread = reading(driver, looks)
    os.write(write, b"q")
    for _ in range(1000):
        if keys:
            break
        thread.join(0.01)
    stopped(driver, thread)
    driver.close()
    assert keys == ["q"]
