"""One battle: each step shown before it is rolled, with its exact odds; the
result applied to the campaign at the end. Tabletop battles take the players'
result instead of the tables'."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from campaigns import battles, tabletop
from campaigns.errors import CampaignError
from campaigns.tabletop import PLAYING
from campaigns.words import column, heading, plural
from rules.allemagne1813.battle import MORALE, UMPIRE_RESULT
from rules.errors import RulesError
from tui.modals.confirm import ConfirmScreen
from tui.modals.form import Field, FormScreen
from tui.screens.base import CampaignScreen
from tui.widgets.bars import odds_bar
from tui.widgets.hanging import Hanging
from tui.widgets.status import KeyLine


def _odds_lines(odds: Mapping[Any, Fraction], width: int = 12) -> list[str]:
    return [f"  {str(k):>4} {odds_bar(p, width)} {float(p) * 100:5.1f}%" for k, p in odds.items()]


_BATTLE_ACTIONS = ("roll", "enter", "morale", "tabletop", "tabletop_screen", "conversion", "apply")


class FightScreen(CampaignScreen):
    TITLE_TEXT = "Battle"
    BINDINGS = [
        Binding("r", "roll", "Roll", id="fight.roll", tooltip="Roll the step shown, with the dice service"),
        Binding("e", "enter", "Enter die", id="fight.enter", tooltip="Type in the die rolled on the table"),
        Binding("p", "morale(True)", "Passed", id="fight.pass", tooltip="The morale test was passed"),
        Binding("f", "morale(False)", "Failed", id="fight.fail", tooltip="The morale test was failed"),
        Binding("t", "tabletop", "Type result", id="fight.type", tooltip="Type the result: the umpire's reading, or the tabletop's"),
        Binding("g", "tabletop_screen", "Resolver", id="fight.resolver", tooltip="Fight it on the resolver screen, with the rule set's own tables"),
        Binding("v", "conversion", "Conversion", id="fight.conversion", tooltip="Change how the campaign forces become tabletop units, for this battle"),
        Binding("a", "apply", "Apply", id="fight.apply", tooltip="Apply the losses and the winner to the campaign"),
        Binding("escape", "back", "Battles", id="fight.back"),
    ]
    # A side file's battle is read: its dice, results and losses are the umpire's to take, and
    # the resolver screen, where each key writes the battle (its opening too), is the umpire's.
    UMPIRE_ONLY = frozenset({"roll", "enter", "morale", "tabletop", "tabletop_screen", "conversion", "apply"})
    DEFAULT_CSS = """
    FightScreen #panels { height: 1fr; }
    FightScreen #step, FightScreen #whole { width: 1fr; border: round $primary; padding: 0 1; }
    FightScreen #log { height: auto; max-height: 8; padding: 0 1; }
    """

    def __init__(self, battle_id: int) -> None:
        super().__init__()
        self.battle_id = battle_id
        self.fight: battles.Fight | None = None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys that apply to this battle as it stands: a battle on the
        tabletop has no table to roll, a battle fought with the tables no resolver."""
        if not super().check_action(action, parameters):
            return False
        fight = self.fight
        if fight is None or action not in _BATTLE_ACTIONS:
            return True
        pending = fight.status in PLAYING
        standalone = "sides" not in fight.setup
        step = fight.next_step if fight.battle is not None else None
        on_tabletop = fight.battle is None
        if action in ("roll", "enter"):
            return pending and ((step is not None and step.kind != UMPIRE_RESULT and not (step.kind == MORALE and step.dice is None))
                                or (not standalone and fight.pursuit_step() is not None))
        if action == "morale":
            return pending and step is not None and step.kind == MORALE and step.dice is None
        if action == "tabletop":
            if not on_tabletop:
                return pending and step is not None and step.kind == UMPIRE_RESULT
            return pending and not standalone and fight.tabletop is None and not fight.tactical
        if action == "tabletop_screen":
            return pending and on_tabletop and (standalone or fight.tabletop is None or fight.tactical)
        if action == "conversion":
            return pending and on_tabletop and not standalone and not fight.tactical and fight.tabletop is None
        if action == "apply":
            return pending and not standalone and fight.ready_to_apply
        return True

    def body(self) -> ComposeResult:
        yield Static(id="head", classes="title", markup=False)
        with Horizontal(id="panels"):
            with VerticalScroll(id="step"):
                yield Static(id="step-text", markup=False)
            with VerticalScroll(id="whole"):
                yield Static(id="whole-text", markup=False)
        yield Static(id="log", markup=False)

    def refresh_view(self) -> None:
        try:
            fight = self.fight = battles.load(self.session, self.battle_id)
        except CampaignError as exc:  # a stored set-up the rules refuse: its sentence, not a crash
            self.query_one("#head", Static).update(f"Battle #{self.battle_id}")
            self.query_one("#step-text", Static).update(str(exc))
            self.query_one("#whole-text", Static).update("")
            self.query_one("#log", Static).update("")
            return
        self.refresh_bindings()
        for line in self.query(KeyLine):  # the key bar offers only the keys that apply to the battle as it stands
            line.redraw()
        if "sides" not in fight.setup:  # a tabletop game outside the campaign's forces
            self.query_one("#head", Static).update(f"Tabletop game at {fight.location} (#{fight.id}, {fight.resolver}, {fight.status})")
            self.query_one("#step-text", Static).update(
                fight.result or "Units entered by hand; nothing goes back to the campaign."
                + self.hint(("tabletop_screen", " g opens the resolver screen."))
            )
            self.query_one("#whole-text", Static).update("")
            self.query_one("#log", Static).update("")
            return
        sides = fight.setup["sides"]
        names = {
            role: fight.participants[role].get("side_name", fight.participants[role]["side"])
            for role in (battles.ATTACKER, battles.DEFENDER)
        }
        self.query_one("#head", Static).update(
            f"Battle of {fight.location} (#{fight.id}, {fight.resolver}, {fight.status}): "
            f"{names['attacker']} attack {names['defender']}"
        )
        # A unit's loss or an odds line that wraps goes on deeper than itself, not at the edge.
        self.query_one("#step-text", Static).update(Hanging(self.step_lines(fight)))
        self.query_one("#whole-text", Static).update(Hanging(self.whole_lines(fight, sides)))
        log = [e for e in fight.journal]
        # a side's player reads no history: the account in the left panel holds the battle's rolls
        where = "the account above" if self.session.side is not None else "the history screen (h)"
        if fight.tactical:  # fought on the resolver screen, which keeps its own log
            done = len(tabletop.load(self.session, self.battle_id).log)
            said = f"{plural(done, 'resolution')} on the resolver screen; {where} lists every roll." if done else "No roll yet."
        else:
            said = f"{plural(len(log), 'step')} taken; {where} lists every roll." if log else "No roll yet."
        self.query_one("#log", Static).update(said)

    def step_lines(self, fight: battles.Fight) -> list[str]:
        # A side's player rolls nothing: the account so far (the rolls, the tabletop's log) is what it reads.
        if fight.status != "pending" or self.session.side is not None:
            from campaigns.account import account

            return list(account(self.session, fight.id))
        if fight.battle is None:
            if fight.tabletop is None:
                if fight.tactical:
                    return [
                        f"On the tabletop under {fight.resolver}: g goes back to the resolver screen; "
                        "ending the battle there returns the losses, unit by unit.",
                    ]
                return [
                    f"Fought on the tabletop under {fight.resolver}.",
                    "g puts the forces on the resolver screen, which runs the card's sequence, "
                    "rolls and results and returns the losses unit by unit. Or, once the players "
                    "finish, t types their result: SP lost by each side and who held the field.",
                    "v changes the conversion first.",
                ]
            lines = [f"Tabletop result: attacker lost {fight.tabletop['attacker']} SP, defender {fight.tabletop['defender']} SP; the {fight.tabletop['winner']} held the field."]
            return lines + self.pursuit_lines(fight)
        step = fight.next_step
        if step is None:
            outcome = fight.battle.outcome
            lines = [f"The battle is over: {outcome.reason}." if outcome else "The battle is over."]
            return lines + self.pursuit_lines(fight)
        lines = [f"Round {step.round_number}: the {step.side}"]
        if step.kind == MORALE:
            lines.append(f"takes the immediate morale test ({'1d6' if step.dice else 'the umpire records it'}).")
            lines.append("p: passed   f: failed" if step.dice is None else "r rolls, e enters the die.")
            return lines
        if step.kind == UMPIRE_RESULT:
            return lines + ["rolled off the table: t types the result the umpire reads."]
        lines.append(f"rolls on the {step.kind} table.")
        if step.strength_points is not None:
            lines.append(f"SP after multipliers: {float(step.strength_points):g} (read as {step.whole_sp})")
        lines.append(f"Column: {column(step.column) if step.column else 'none: no loss'}")
        lines += [f"  {a.printed.split(':')[0]}: {a.effect}" for a in step.applied]
        mods = ", ".join(f"{m.label} {m.value:+d}" for m in step.modifiers) or "none"
        lines.append(f"Dice: {step.dice or '-'}  modifiers: {mods}")
        lines.append("Result odds:")
        lines += _odds_lines(step.odds)
        lines.append("r rolls, e enters the die.")
        return lines

    def pursuit_lines(self, fight: battles.Fight) -> list[str]:
        step = fight.pursuit_step()
        if step is not None:
            mods = ", ".join(f"{m.label} {m.value:+d}" for m in step.modifiers) or "none"
            return ["", f"Pursuit on the winner's CB {step.cavalry_bonus} (column {column(step.column)}), modifiers {mods}:", *_odds_lines(step.odds), "r rolls it."]
        if fight.ready_to_apply:
            plan = battles.settlement(self.session, fight.id)
            lines = ["", f"SP lost: attacker {plan.losses['attacker']}, defender {plan.losses['defender']}"]
            lines += [f"  {plan.names.get(u, u)}: -{n}" for u, n in plan.by_unit.items()]
            lines += [plan.eliminated_line()] if plan.eliminated else []
            return lines + ["a applies this to the campaign (u undoes)."]
        return []

    def whole_lines(self, fight: battles.Fight, sides: dict) -> list[str]:
        lines = []
        for role in (battles.ATTACKER, battles.DEFENDER):
            s = sides[role]
            sp = sum(s["sp_by_arm"].values())
            lost = fight.battle.sp_lost(role) if fight.battle else 0
            leaders = ", ".join(g["name"] for g in s["generals"]) or "no leader"
            lines.append(f"{role.title()}: {sp - lost}/{sp} SP, AB {s['artillery_bonus']}, CB {s['cavalry_bonus']}; {leaders}")
        if fight.battle is None:
            lines += self.tabletop_lines(fight)
        facts = [label for key, label in battles.FACTS if fight.setup["facts"].get(key)]
        lines.append(f"Weather {fight.setup['weather'] or 'not rolled yet'}; " + ("; ".join(facts) if facts else "no special situation"))
        if fight.battle is not None and fight.status == "pending" and not fight.battle.finished:
            try:
                odds = fight.battle.odds()
            except RulesError as exc:  # an option that leaves a roll to the umpire
                return lines + [f"Odds: {exc}"]
            lines.append("Who wins, from here (exact):")
            lines += _odds_lines({k or "-": p for k, p in odds.winner.items()})
            lines.append(f"Chance of a morale test: {float(odds.morale_test) * 100:.1f}%")
            if odds.morale_tests_counted_as_passed:
                lines.append("(morale tests counted as passed: the umpire rules them)")
        return lines

    def tabletop_lines(self, fight: battles.Fight) -> list[str]:
        lines = []
        for role in (battles.ATTACKER, battles.DEFENDER):
            converted = battles.tactical_order(fight, role)
            if converted is None:
                lines.append(f"{role.title()} forces: " + "; ".join(f"{f[1]} {f[3]} SP coh {f[4]}" for f in fight.setup["sides"][role].get("forces", [])))
                continue
            conversion, order = converted
            lines.append(f"{role.title()} on the table ({conversion.source}):")
            lines += [f"  {u.name}: {u.size} {conversion.size_label}, {u.quality}" for u in order.units]
            lines += [f"  Leader {name}: {rating}" for name, rating in order.leaders]
        if battles.tactical_order(fight, battles.ATTACKER) is None:
            lines.append(f"({fight.resolver} has no conversion data yet: the players convert by hand.)")
        return lines

    # -- actions -------------------------------------------------------------

    def _fight(self) -> battles.Fight:
        return battles.load(self.session, self.battle_id)

    def _roll(self, typed: bool) -> None:
        fight = self._fight()
        if fight.status != "pending":
            return
        if fight.battle is not None and fight.next_step is not None:
            step = fight.next_step
            dice = step.dice or "1d6"
            self.with_dice(f"round {step.round_number}, {step.side}", dice,
                           lambda d: self.attempt(lambda: battles.roll_step(self.session, self.battle_id, d), worker=True), typed=typed)
        elif fight.pursuit_step() is not None:
            self.with_dice("the pursuit", "1d6", lambda d: self.attempt(lambda: battles.roll_pursuit(self.session, self.battle_id, d), worker=True), typed=typed)
        else:
            self.notify("Nothing to roll: a applies the result.", severity="warning")

    def action_roll(self) -> None:
        self._roll(typed=False)

    def action_enter(self) -> None:
        self._roll(typed=True)

    def action_morale(self, passed: bool) -> None:
        self.attempt(lambda: battles.record_morale(self.session, self.battle_id, passed), worker=True)

    def action_tabletop(self) -> None:
        fight = self._fight()
        if fight.battle is not None:
            step = fight.next_step
            if step is None or step.kind != UMPIRE_RESULT:
                self.notify("Nothing to type: the step is rolled.", severity="warning")
                return
            fields: list[Field] = [("cell", "Result (e.g. 2, 3*, -)", "", None)]
            self.app.push_screen(
                FormScreen("The umpire's reading of the roll", fields, check=lambda v: battles.record_result(self.session, self.battle_id, v["cell"])),
                lambda v: self.campaign_changed() if v else None,
            )
            return
        fields = [
            ("attacker", "Attacker SP lost", "0", None),
            ("defender", "Defender SP lost", "0", None),
            ("winner", "Held the field", "defender", ["attacker", "defender"]),
        ]
        self.app.push_screen(
            FormScreen("Result of the tabletop battle", fields, check=lambda v: battles.record_tabletop(self.session, self.battle_id, v)),
            lambda v: self.campaign_changed() if v else None,
        )

    def action_tabletop_screen(self) -> None:
        from campaigns import tabletop

        fight = self._fight()
        if "sides" not in fight.setup and fight.status in PLAYING:
            from tui.screens.resolver import ResolverScreen

            self.app.switch_screen(ResolverScreen(self.battle_id))
            return
        if fight.battle is not None or not tabletop.has_resolver(fight.resolver):
            self.notify("Only a battle handed to a tactical rule set goes to the resolver screen.", severity="warning")
            return
        if fight.status != "pending" or (fight.tabletop is not None and not fight.tactical):
            self.notify("The result of this battle is in: a applies it.", severity="warning")
            return
        from tui.screens.resolver import ResolverScreen

        def open_resolver(_started: object = None) -> None:
            self.app.switch_screen(ResolverScreen(self.battle_id))

        if fight.tactical:
            open_resolver()
        else:  # its tactical order of battle built first (a worker), then shown
            self.attempt(lambda: tabletop.start(self.session, self.battle_id), worker=True, then=open_resolver)

    def action_conversion(self) -> None:
        fight = self._fight()
        converted = battles.tactical_order(fight, battles.ATTACKER) if fight.battle is None else None
        if converted is None:
            self.notify("Only a tabletop battle under a rule set with a conversion has one to edit.", severity="warning")
            return
        conversion = converted[0]
        fields = [("sp_per_unit", f"SP per {conversion.label}", str(conversion.sp_per_unit), None)]
        fields += [(arm, f"{heading(conversion.size_label)} ({arm})", str(size), None) for arm, size in conversion.size.items()]
        self.app.push_screen(
            FormScreen(f"Conversion to {fight.resolver}, this battle", fields,
                       check=lambda v: battles.edit_conversion(self.session, self.battle_id, v)),
            lambda v: self.campaign_changed() if v else None,
        )

    def action_apply(self) -> None:
        try:
            plan = battles.settlement(self.session, self.battle_id)
        except CampaignError as exc:
            self.notify(str(exc), severity="warning")
            return
        question = (
            f"Apply the battle: the {plan.winner} wins; attacker loses {plan.losses['attacker']} SP, "
            f"defender {plan.losses['defender']} SP?" + (f" {plan.eliminated_line()}." if plan.eliminated else "")
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self.attempt(lambda: battles.apply(self.session, self.battle_id), worker=True)

        self.app.push_screen(ConfirmScreen(question, yes="Apply"), answered)

    async def action_back(self) -> None:
        await self.app.run_action("show('battles')")
