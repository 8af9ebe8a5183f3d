"""Orders: a player writes them in the side file, the umpire queues them and applies or refuses each.

In the side file an order is a `side_order` row of status "written"; on a club's
server (campaigns.player.ClubPlayerSession) the side's own database role inserts
it "queued", straight into the umpire's queue, and there is nothing to export. `export`
writes them as a JSON document naming the campaign (uid), the side and the turn
of the despatch they answer. `import_orders` checks that document with pydantic
(a hostile file is one sentence) and queues its orders in the umpire's campaign
as one action, refusing orders that answer another campaign or another turn.
The umpire then applies (a move is made as the card prices it) or refuses each,
each as one action.

The list of orders (`listed`) is read as plain rows (OrderRow, through
models.record_columns): the orders screen is drawn without SQLModel's classes and
SQLAlchemy's ORM (150-250 ms of CPU to import); writing an order imports them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import select

from campaigns.errors import CampaignError, plainly
from campaigns.session import CampaignSession
from campaigns.text import plain_name, shown
from campaigns.userfile import read_bytes
from models import record_columns as rows
from models.clock import utcnow
from rules.numbers import ORDER

if TYPE_CHECKING:
    from campaigns.orders_schema import OrdersDoc
    from models import SideOrder

FORMAT = "adjutant-orders"
KINDS = ("move", "forced_march", "command_points", "reconnaissance", "note")
WRITTEN, QUEUED, APPLIED, REFUSED = "written", "queued", "applied", "refused"
MAX_BYTES = 1_000_000



def __getattr__(name: str) -> object:
    """The file's pydantic models (campaigns.orders_schema), loaded when first asked for."""
    if name in ("OrderDoc", "OrdersDoc"):
        from campaigns import orders_schema

        return getattr(orders_schema, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# -- in the side file ------------------------------------------------------------


def _player(session: CampaignSession):
    from campaigns.player import PlayerSession

    if not isinstance(session, PlayerSession):
        raise CampaignError("orders are written in a side file (adjutant despatch); the umpire imports them")
    return session


def write(session: CampaignSession, kind: str, stack: str = "", place: str = "", text: str = "", action: str = "") -> str:
    """Write one order in the side file, as one action. A move is priced against the side's own units."""
    from models import SideOrder

    player = _player(session)
    if kind not in KINDS:
        raise CampaignError(f"an order is one of {', '.join(KINDS)}, not {kind!r}")
    text = plain_name(text, "an order's text") if text.strip() else ""
    detail: dict[str, object] = {}
    if kind in ("move", "forced_march", "reconnaissance"):
        if not stack.strip() or not place.strip():
            raise CampaignError(f"a {kind.replace('_', ' ')} order names a stack and a place")
        from campaigns.movement import plan_move
        from campaigns.stacks import stack_of

        own = stack_of(session, stack)
        if own.side != player.side:
            raise CampaignError(f"{own.label} is not yours to order")
        stack = own.leader.id if own.leader else own.key
        if kind == "reconnaissance":
            from campaigns.gazetteer import GazetteerError, gazetteer

            try:
                place = gazetteer().place(place).name
            except GazetteerError as exc:
                raise CampaignError(str(exc)) from None
        else:
            report = plan_move(session, stack, place)
            place = report.destination
            detail = {"cost": report.price.mp, "route": report.route.describe(), "priced": report.lines()}
            if kind == "move" and report.refusal and not report.forcible(session.options()):
                raise CampaignError(f"{own.label} cannot move to {place}: {report.refusal}")
            if kind == "move" and report.refusal:
                kind = "forced_march"  # beyond the MP but within a forced march: asked for as one
    elif kind == "command_points":
        from rules.allemagne1813.command import ACTIONS

        # Checked as it is written, not only when the umpire applies it a turn's post later.
        if action.strip() not in ACTIONS:
            said = f", not {shown(action.strip())[:40]!r}" if action.strip() else ""
            raise CampaignError(f"a command-points order spends them on one of {', '.join(ACTIONS)}{said}")
        detail = {"action": action.strip()}
    elif not text:
        raise CampaignError("a note to the umpire needs its text")
    said = " ".join(part for part in (stack, place, text[:60]) if part)  # a note has no stack or place: no gaps for them
    with plainly(), player.orders(f"Order ({kind.replace('_', ' ')}): {said}") as db:
        db.add(SideOrder(side=player.side, turn=player.turn, kind=kind, stack=stack, place=place, detail=detail,
                         text=text, status=player.order_status, written=utcnow()))
    where = f" to {place}" if place else ""
    cost = f" ({detail['cost']} MP by {detail['route']})" if "cost" in detail else ""
    return f"Written: {' '.join(p for p in (kind.replace('_', ' '), stack) if p)}{where}{cost}{': ' + text if text else ''}"


class OrderRow(NamedTuple):
    """An order (models.SideOrder) as `listed` reads it: a plain row of its columns but the time written."""

    id: int
    side: str
    turn: int
    kind: str
    stack: str
    place: str
    detail: dict[str, Any]
    text: str
    status: str
    ruling: str


def listed(session: CampaignSession, side: str | None = None) -> list[OrderRow]:
    """The orders by side, oldest first; with `side`, that side's alone."""
    order = rows.SIDE_ORDER.c
    query = select(*(order[name] for name in OrderRow._fields)).order_by(order.side, order.id)
    if side is not None:
        query = query.where(order.side == side)
    with plainly(), session.store.connect() as db:
        return [OrderRow(*row) for row in db.execute(query)]


def export(session: CampaignSession) -> dict[str, object]:
    """The side file's orders as the JSON document the umpire imports."""
    player = _player(session)
    if player.order_status == QUEUED:
        raise CampaignError("on the club's server your orders reach the umpire's queue as you write them: there is nothing to export")
    campaign = session.campaign()
    orders = [
        {"kind": o.kind, "stack": o.stack, "place": o.place, "action": str(o.detail.get("action", "")), "text": o.text,
         **({"cost": o.detail["cost"]} if isinstance(o.detail.get("cost"), int) else {})}
        for o in listed(session, player.side) if o.status == WRITTEN
    ]
    return {"format": FORMAT, "version": 1, "campaign": campaign.uid, "side": player.side, "turn": player.turn, "orders": orders}


# -- in the umpire's campaign -----------------------------------------------------


def read(path: Path) -> OrdersDoc:
    """The orders file, checked; one sentence for anything else."""
    raw = read_bytes(path, "orders", MAX_BYTES)  # a FIFO, a device, a directory, a huge file: one sentence
    try:
        document = json.loads(raw.decode("utf-8-sig"), parse_constant=_no_constant)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise CampaignError(f"{path} is not an orders file: it is not JSON text") from None
    except ValueError:  # a number of thousands of digits (Python's limit on int conversion), NaN, Infinity
        raise CampaignError(f"{path} is not an orders file: it holds a number no orders file has") from None
    from pydantic import ValidationError

    from campaigns.orders_schema import OrdersDoc

    try:
        return OrdersDoc.model_validate(document)
    except ValidationError as error:
        first = error.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "the document"
        raise CampaignError(f"{path} is not an orders file Adjutant wrote: {where}: {first['msg']}") from None


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def import_orders(session: CampaignSession, doc: OrdersDoc) -> str:
    """Queue a side's orders in the umpire's campaign, as one action."""
    campaign = session.campaign()
    if campaign.fog_side is not None:
        raise CampaignError("this is a side file: orders are imported into the umpire's campaign")
    if doc.campaign != campaign.uid:
        raise CampaignError("these orders answer a despatch of another campaign")
    if doc.turn != campaign.turn:
        raise CampaignError(f"these orders answer the despatch of turn {doc.turn}, and the campaign is at turn {campaign.turn}")
    from sqlmodel import col

    from models import Side, SideOrder

    with plainly(), session.store.read() as db:
        side = db.get(Side, doc.side)
        again = db.scalars(select(col(SideOrder.id)).where(col(SideOrder.side) == doc.side, col(SideOrder.turn) == doc.turn)).first()
    if side is None:
        raise CampaignError(f"these orders are signed by a side this campaign does not have ({doc.side!r})")
    if again is not None:
        raise CampaignError(f"{side.name}'s orders for turn {doc.turn} are queued already")
    if not doc.orders:
        raise CampaignError("the orders file holds no orders")
    with plainly(), session.store.action(f"Orders of {side.name} for turn {doc.turn} queued ({len(doc.orders)})") as db:
        for o in doc.orders:
            detail = {k: v for k, v in (("action", o.action), ("cost", o.cost)) if v not in ("", None)}
            db.add(SideOrder(side=doc.side, turn=doc.turn, kind=o.kind, stack=o.stack, place=o.place, detail=detail,
                             text=o.text, status=QUEUED, written=utcnow()))
    return f"Queued {len(doc.orders)} order{'' if len(doc.orders) == 1 else 's'} of {side.name} for turn {doc.turn}."


def _queued(session: CampaignSession, order_id: int) -> SideOrder:
    from models import SideOrder

    with plainly(), session.store.read() as db:
        order = db.get(SideOrder, order_id) if ORDER.holds(order_id) else None  # PostgreSQL refuses to look past its integer
    if order is None:
        raise CampaignError(f"there is no order #{order_id}")
    if order.status != QUEUED:
        raise CampaignError(f"order #{order_id} is {order.status} already")
    return order


def describe(order: SideOrder | OrderRow) -> str:
    kind = order.kind.replace("_", " ")
    what = " ".join(p for p in (order.stack, f"to {order.place}" if order.place else "", str(order.detail.get("action", ""))) if p)
    ruling = f" ({order.ruling})" if order.ruling else ""
    return f"#{order.id} {order.side}, turn {order.turn}, {' '.join(p for p in (kind, what) if p)}{': ' + order.text if order.text else ''} [{order.status}]{ruling}"


def apply(session: CampaignSession, order_id: int) -> str:
    """Carry out a queued order as one action: a move is activated if need be and marched as
    the card prices it; a reconnaissance is rolled; a note or a spending is marked read."""
    from campaigns import movement
    from campaigns.stacks import stack_of
    from models import SideOrder

    order = _queued(session, order_id)
    if order.kind in ("move", "forced_march", "reconnaissance"):
        # the orders file is the player's: it may name any stack, and only the side's own obey it
        ordered = stack_of(session, order.stack)
        if ordered.side != order.side:
            raise CampaignError(f"order #{order_id} of {order.side} names {ordered.label}, which is not theirs to order")
    if order.kind in ("move", "forced_march") and movement.activation_of(session, stack_of(session, order.stack)) is None:
        report = movement.plan_move(session, order.stack, order.place)
        if report.refusal and not (order.kind == "forced_march" and report.forcible(session.options())):
            raise CampaignError(f"{report.stack.label} cannot move to {report.destination}: {report.refusal}")
        # Activation pays command points: an action of its own, made before the move reads it.
        movement.activate(session, order.stack)
    with plainly(), session.store.action(f"Order #{order_id} applied: {describe(order)}") as db:
        done = "read by the umpire"
        if order.kind in ("move", "forced_march"):
            done = movement.move(session, order.stack, order.place, forced=order.kind == "forced_march")
        elif order.kind == "reconnaissance":
            from campaigns.reconnaissance import reconnoitre_stack

            enemy = next((s for s in _enemies_at(session, order.side, order.place)), None)
            if enemy is None:
                raise CampaignError(f"there is no enemy stack at {order.place} to reconnoitre")
            done = reconnoitre_stack(session, order.stack, enemy)
        row = db.get_one(SideOrder, order_id)
        row.status, row.ruling = APPLIED, _ruling_for_the_side(order, done)[:500]
    return f"Applied #{order_id}: {done}"


def _ruling_for_the_side(order: Any, done: str) -> str:
    """What the side reads of an order applied (the ruling is in its side file and readable by its
    club role). A reconnaissance's roll names the column of the cavalry differential and the
    cohesion modifier, which tell the enemy screen's cavalry SP and cohesion, and its die, which the
    side's dice do not include: the side learns what the result reveals, as its sighting, and no more."""
    if order.kind != "reconnaissance":
        return done
    return f"Reconnaissance from {order.stack} at {order.place} made: what it learned is in your sightings (S)"


def _enemies_at(session: CampaignSession, side: str, place: str) -> list[str]:
    from campaigns.stacks import all_stacks

    return [s.key for s in all_stacks(session) if s.side != side and s.place == place]


def refuse(session: CampaignSession, order_id: int, reason: str) -> str:
    _queued(session, order_id)
    reason = plain_name(reason, "the reason") if reason.strip() else "refused by the umpire"
    from models import SideOrder

    with plainly(), session.store.action(f"Order #{order_id} refused: {reason}") as db:
        row = db.get_one(SideOrder, order_id)
        row.status, row.ruling = REFUSED, reason
    return f"Refused #{order_id}: {reason}"


def turn_of(session: CampaignSession) -> int:
    with plainly(), session.store.connect() as db:
        return db.execute(select(rows.CAMPAIGN.c.turn).where(rows.CAMPAIGN.c.id == 1)).scalar_one()
