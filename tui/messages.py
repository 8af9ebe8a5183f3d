"""The messages screens send up to the app instead of calling into it."""

from __future__ import annotations

from textual.message import Message


class CampaignChanged(Message):
    """The stored campaign changed: the app redraws the screen on show (AdjutantApp.on_campaign_changed).

    Posted by a screen after an action it ran wrote to the campaign; it bubbles from
    the screen to the app, which is the one place that knows which screen is shown."""
