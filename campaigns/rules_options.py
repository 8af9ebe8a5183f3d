"""The campaign's own choice among the named readings of its rule set (rules/<ruleset>/options.toml).

A campaign starts on every default; the umpire changes a reading for this campaign
only, as one undoable action, and `adjutant options FILE` shows what is chosen.
"""

from __future__ import annotations

from campaigns.errors import CampaignError, plainly
from campaigns.session import CampaignSession
from models import Campaign
from rules.options import load_options, render_options, resolve_options


def describe(session: CampaignSession) -> str:
    """Every named option of the campaign's rule set, its choices, default and reason, and
    this campaign's choice where it differs from the default."""
    campaign = session.campaign()
    with plainly():
        return render_options(campaign.ruleset, campaign.options)


def choose(session: CampaignSession, option_id: str, value: str) -> str:
    """Change one reading for this campaign; the default again removes the campaign's own choice."""
    campaign = session.campaign()
    with plainly():
        resolve_options(campaign.ruleset, {option_id: value})  # one sentence for an unknown option or value
        default = load_options(campaign.ruleset)[option_id].default
    chosen = {k: v for k, v in campaign.options.items() if k != option_id}
    if value != default:
        chosen[option_id] = value
    if chosen == campaign.options:
        raise CampaignError(f"option {option_id} is {value} already")
    with plainly(), session.store.action(f"Rules option {option_id}: {value}") as db:
        db.get_one(Campaign, 1).options = chosen  # JSON columns are reassigned, never mutated
    return f"Rules option {option_id}: {value}" + (" (the default)" if value == default else "")
