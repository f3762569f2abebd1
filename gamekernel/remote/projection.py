"""What each audience may see: one projection of the session, computed from public facts only.

The GM sees the session as it is. Everyone else sees the *public table*: the state that the public
events alone would have made. It is kept beside the GM's state event by event: a public event moves
the public state by what it changed in the GM's (numbers by their difference, a card table zone by
zone, anything else to its new value); a secret event moves nothing, so neither it nor its
consequences (HP after secret damage, a secret natural 1's flux, the card a secret flux drew, a count
of cards) reach a player until the GM reveals it (`%reveal N`, which rebuilds the public state with
that event public). A player also sees what they own: their seats' sheets, hands and the asks
addressed to them. Every player-visible byte is drawn from here, from the session's one public table
(`Session.public_table`): the players' page, the intents' replies, the `%table` view of a seat, and
in the notebook `%hand NAME`, the hand widget, the dashboard and the hands of public results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from gamekernel.events import EVENT_KINDS, Event, EventKind
from gamekernel.hiding import condition, visible  # noqa: F401  (re-exported)
from gamekernel.state import PartsOnDemand, TableState, part_picture, rebuilt_part
from gamekernel.util import plain_copy

if TYPE_CHECKING:  # the session it reads and calls: for the type checker only
    from gamekernel.session import SessionCore

S = TypeVar("S", bound="SessionCore")  # the GM session's own class, of which the shadow is made


def picture_after(state: TableState, kind: EventKind, before: dict[str, Any]) -> dict[str, Any]:
    """`state.to_dict()` after an event of `kind`, given the picture `before` it: only the parts the
    kind may change are pictured again, the others are `before`'s own (the same objects, which
    `shift` then passes over at once). A table of many characters pays for the part an event moved,
    not for the whole state at every event."""
    if kind.changes is None:
        return state.to_dict()
    after = dict(before)
    for name in kind.changes:
        after[name] = part_picture(state[name])
    return after


META_KINDS = frozenset({"undo", "redo"})
GM, PLAYER, SPECTATOR = "gm", "player", "spectator"


@dataclass(frozen=True)
class Audience:
    """Who is looking: the GM, a player (a Jupyter user, seated or not) or a spectator."""

    kind: str
    user: str | None = None

    @classmethod
    def player(cls, user: str) -> Audience:
        return cls(PLAYER, user)


def is_number(value: Any) -> bool:
    return type(value) in (int, float)


def is_card_table(value: Any) -> bool:
    """A card table's snapshot (gamekernel/cards/table.py `CardTable.to_dict`): zones in order, instances."""
    return isinstance(value, dict) and value.keys() == {"serial", "zones", "cards"}


def shift_order(public: list[str], before: list[str], after: list[str]) -> list[str]:
    """A zone's public order moved by what a public event changed in it: the cards it took out are
    taken out, the cards it put in are put in at their place; a reorder of the very cards the public
    knows (a shuffle) is taken whole. A card a secret event moved stays where the public saw it."""
    was = set(before)
    if set(public) == was:
        return list(after)
    gone, came = was - set(after), [u for u in after if u not in was]
    moved = [u for u in public if u not in gone]
    for uid in came:
        moved.insert(min(after.index(uid), len(moved)), uid)
    return moved


IDENTITY = ("uid", "def_id", "home")  # what a card is; the rest of its record is where and how it lies


def stand_ins(public: dict[str, Any], before: dict[str, Any]) -> dict[str, str]:
    """Each card a secret event put in a zone -> the card the players still see in its place there
    (a secret flux's replacement -> the card it replaced), paired in order zone by zone."""
    shown = {zone["name"]: zone["order"] for zone in public["zones"]}
    pairs: dict[str, str] = {}
    for zone in before["zones"]:
        seen = shown.get(zone["name"], [])
        known, there = set(seen), set(zone["order"])
        fresh = [uid for uid in zone["order"] if uid not in known]
        pairs.update(zip(fresh, [uid for uid in seen if uid not in there], strict=False))
    return pairs


def swapped(table: dict[str, Any], pairs: Mapping[str, str]) -> dict[str, Any]:
    """`table` with each pair of cards trading places (zone, position, state), each keeping what it is."""
    other = {**pairs, **{b: a for a, b in pairs.items()}}
    zones = [{**zone, "order": [other.get(uid, uid) for uid in zone["order"]]} for zone in table["zones"]]
    cards = dict(table["cards"])
    for uid, mate in other.items():
        if uid in table["cards"] and mate in table["cards"]:
            cards[uid] = {**table["cards"][mate], **{k: table["cards"][uid][k] for k in IDENTITY
                                                      if k in table["cards"][uid]}}
    return {**table, "zones": zones, "cards": cards}


def shift_cards(public: dict[str, Any], before: dict[str, Any], after: dict[str, Any], *,
                translated: bool = False) -> dict[str, Any]:
    """A card table moved by a public event, zone by zone and card by card, so that each card lies in
    exactly one zone. A public event that moves a secret flux's replacement out of its zone (an
    encounter's end discarding it) moves the card the players see in its place instead, so the counts
    and names they see stay theirs; one that changes the replacement where it lies (a tap: its name
    is shown) shows the table as it is: the secret is spent (GW-ALPHA-10)."""
    changed = {uid for uid in after["cards"].keys() | before["cards"].keys()
               if before["cards"].get(uid) != after["cards"].get(uid)}
    unknown = [uid for uid in changed if public["cards"].get(uid) != before["cards"].get(uid)]
    if unknown and not translated:
        pairs = stand_ins(public, before)
        moved = {uid: pairs[uid] for uid in unknown if uid in pairs and pairs[uid] not in changed
                 and uid in after["cards"] and uid in before["cards"]
                 and after["cards"][uid]["zone"] != before["cards"][uid]["zone"]}
        if len(moved) == len(unknown):
            return shift_cards(public, swapped(before, moved), swapped(after, moved), translated=True)
    if unknown:
        return plain_copy(after)
    old = {zone["name"]: zone for zone in before["zones"]}
    mine = {zone["name"]: zone for zone in public["zones"]}
    zones = []
    for zone in after["zones"]:
        seen, was = mine.get(zone["name"]), old.get(zone["name"])
        if seen is None or was is None:
            zones.append(plain_copy(zone))
        else:
            zones.append({**plain_copy(zone), "order": shift_order(seen["order"], was["order"], zone["order"])})
    cards = {uid: plain_copy(after["cards"][uid]) if uid in changed else card
             for uid, card in public["cards"].items() if uid not in changed or uid in after["cards"]}
    cards.update({uid: plain_copy(after["cards"][uid]) for uid in changed if uid in after["cards"]})
    serial = shift(public["serial"], before["serial"], after["serial"])
    return {"serial": serial, "zones": zones, "cards": dict(sorted(cards.items()))}


def shift(public: Any, before: Any, after: Any) -> Any:
    """`public` moved by what changed from `before` to `after`: a number by the difference, a dict key
    by key, a card table zone by zone (`shift_cards`), anything else (text, lists, flags) to its new
    value; what did not change keeps `public`'s."""
    if before == after:
        return public
    if is_card_table(before) and is_card_table(after) and is_card_table(public):
        return shift_cards(public, before, after)
    if is_number(before) and is_number(after) and is_number(public):
        return public + (after - before)
    if isinstance(before, dict) and isinstance(after, dict) and isinstance(public, dict):
        moved = dict(public)
        for key in after.keys() | before.keys():
            if key not in after:
                moved.pop(key, None)
            elif key in before and key not in public and is_number(before[key]) and is_number(after[key]):
                moved[key] = after[key] - before[key]  # a count the public holds none of (a zero left out)
            elif key not in before or key not in public:
                moved[key] = plain_copy(after[key])
            elif public[key] is before[key]:  # the players saw this as the GM did: they see it as it is
                moved[key] = after[key]
            elif before[key] != after[key]:
                moved[key] = shift(public[key], before[key], after[key])
        return moved
    if same_people(public, before, after):
        return [shift(p, b, a) for p, b, a in zip(public, before, after, strict=True)]
    return plain_copy(after)


def same_people(public: Any, before: Any, after: Any) -> bool:
    """Whether three lists hold the same named entries in the same places (a fight's fighters): then a
    public step moves each entry by its own change, and a fighter it did not touch keeps the state
    the players know, not the one a secret hit gave him (GURPS-SR-09)."""
    if not (isinstance(public, list) and isinstance(before, list) and isinstance(after, list)):
        return False
    if not len(public) == len(before) == len(after) or not public:
        return False
    rows = zip(public, before, after, strict=True)
    return all(isinstance(p, dict) and isinstance(b, dict) and isinstance(a, dict) and "name" in a
               and p.get("name") == b.get("name") == a.get("name") for p, b, a in rows)


class PublicTable:
    """The public state beside the GM's, kept up to date by observing the session."""

    def __init__(self, session: SessionCore) -> None:
        self.session = session
        self.public: dict[str, Any] = {}
        self.gm_before: dict[str, Any] = {}
        self.version = 0  # moves with every event: what every player's view shares is drawn once a version
        self._shared: tuple[int, dict[str, Any]] | None = None
        self._state: tuple[int, TableState] | None = None
        self._live: tuple[int, TableState] | None = None
        self._shadow: tuple[int, Any] | None = None
        self._hidden: tuple[int, bool] = (-1, False)
        self._seen: tuple[int, int] = (0, -1)  # (the log's identity, its length) the public state is of
        self._events: tuple[Any, ...] | None = None  # (active list, revealed, length read, last read, events)
        self.rebuild()
        self.stop = session.observe(self.on_event)

    @property
    def hidden(self) -> bool:
        """Whether the players' table differs from the GM's (a secret event changed something);
        compared once a version."""
        if self._hidden[0] != self.version:
            self._hidden = (self.version, self.public != self.gm_before)
        return self._hidden[1]

    def current(self) -> PublicTable:
        """This table, rebuilt first when the session's log was replaced without an event (a campaign
        reopened, a log file resumed): every view reads the log the session holds now."""
        if self._seen != (id(self.session.log), len(self.session.log)):
            self.version += 1
            self.rebuild()
        return self

    def revealed(self) -> list[int]:
        return list(self.session.state["seats"].revealed)

    def rebuild(self) -> None:
        """Replay the active events once, moving the public state by every visible one."""
        revealed = self.revealed()
        state = TableState()
        gm = state.to_dict()
        public = gm  # pictures are never changed in place: the two share what they agree on
        for event in self.session.active:
            kind = EVENT_KINDS[event.kind]
            if kind.apply is not None:
                kind.apply(state, event.data)
                after = picture_after(state, kind, gm)
                if visible(event, revealed):
                    public = shift(public, gm, after)
                gm = after
        self.public, self.gm_before = public, gm
        self._seen = (id(self.session.log), len(self.session.log))

    def on_event(self, session: SessionCore, event: Event) -> None:
        if self._seen == (id(session.log), len(session.log)):  # a view read it already (`current`)
            return
        self.version += 1
        if event.kind in META_KINDS or event.kind == "table.reveal":
            self.rebuild()
            return
        if self._seen != (id(session.log), len(session.log) - 1):  # the log was replaced in between
            self.rebuild()
            return
        kind = EVENT_KINDS[event.kind]
        if kind.apply is None:  # a roll, a note: its kind changes no state, nothing moves
            self._seen = (id(session.log), len(session.log))
            return
        after = picture_after(session.state, kind, self.gm_before)
        if visible(event, self.revealed()):
            self.public = shift(self.public, self.gm_before, after)
        self.gm_before = after
        self._seen = (id(session.log), len(session.log))

    def state(self) -> TableState:
        """The public table as a state of its own, each part rebuilt from its public picture on first
        use (made once a version: every view of one moment shares it)."""
        if self._state is None or self._state[0] != self.version:
            public = self.public  # this version's pictures (never changed in place), whenever a part is read
            self._state = (self.version, PartsOnDemand(lambda name: rebuilt_part(name, plain_copy(public[name]))))
        return self._state[1]

    def live_state(self) -> TableState:
        """The public table for a step about to show its result now: a part the players see as the
        GM does is the session's own part (as `Session.public_state` gives the whole state while
        nothing is hidden), any other the public one. Never to keep past the next event."""
        if self._live is None or self._live[0] != self.version:
            self._live = (self.version, PartsOnDemand(self._live_part))
        return self._live[1]

    def _live_part(self, name: str) -> Any:
        public, gm = self.public.get(name), self.gm_before.get(name)
        if public is gm or public == gm:
            return self.session.state[name]
        return self.state()[name]

    def shadow(self) -> Any:
        """The public table as a read-only session (`shadow_session`), made once a version."""
        if self._shadow is None or self._shadow[0] != self.version:
            self._shadow = (self.version, shadow_session(self.state(), self.events(), type(self.session)))
        return self._shadow[1]

    def shared(self, draw: Any) -> dict[str, Any]:
        """`draw(table)` once per version of the public table: the facts and story every player's view
        starts from (a table of 8 players draws them once per event, not 8 times)."""
        if self._shared is None or self._shared[0] != self.version:
            self._shared = (self.version, draw(self))
        return self._shared[1]

    def events(self) -> list[Event]:
        """The events everyone may know of, the revealed ones shown as public. Kept between calls:
        while the session's active events only grow (no undo, no reveal), only the new ones are read
        (the same test as gamekernel/secret_index.py's)."""
        active, revealed = self.session.active, tuple(self.revealed())
        kept = self._events
        if (kept is not None and kept[0] is active and kept[1] == revealed and kept[2] <= len(active)
                and (not kept[2] or active[kept[2] - 1] is kept[3])):
            start, out = kept[2], kept[4]
        else:
            start, out = 0, []
        known = set(revealed)
        out.extend(replace(e, secret=False) if e.secret else e for e in active[start:] if visible(e, known))
        self._events = (active, revealed, len(active), active[-1] if active else None, out)
        return list(out)


def shadow_session(state: TableState, events: Sequence[Event], kind: type[S]) -> S:
    """A Session (of the class `kind`, the GM's own) that holds `state` and `events` and records
    nothing: the same read methods the notebook uses (sheets, hands, libraries, the fight) then read
    the projected state."""
    shadow = kind()
    shadow.state, shadow.log, shadow.active = state, list(events), list(events)
    shadow.projected = True  # already the players' table: its views read its own state
    return shadow


def owned(seats: Mapping[str, Sequence[str]], user: str | None) -> set[str]:
    return set(seats.get(user, ())) if user else set()
