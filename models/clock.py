"""The time stamped on events and dice rolls."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """Now, in UTC. SQLModel stores aware times as UTC on both back ends and reads them back as UTC."""
    return datetime.now(UTC)
