"""The `adjutant` command: dispatches to the rules, campaign-file or app commands.

Each branch imports only what it needs, so `adjutant rules ...` never loads
textual or sqlmodel.
"""

from __future__ import annotations

import sys

CAMPAIGN_COMMANDS = {
    "new", "scenarios", "check", "export", "import", "log", "dice", "battles",
    "options", "luck", "report", "past", "config", "places", "route", "activate", "move", "pontoon", "map",
    "despatch", "sight", "knows", "orders",
}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "rules":
        from rules.cli import main as rules_main

        return rules_main(args[1:])
    if args and args[0] in CAMPAIGN_COMMANDS:
        from campaigns.cli import main as campaign_main

        return campaign_main(args)
    from tui.launch import main as app_main

    return app_main(args)


if __name__ == "__main__":
    sys.exit(main())
