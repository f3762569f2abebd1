"""Gamma World magics (%deck, %draw, %hand, %tap, %untap, %overcharge, %flux, %encounter, %gw) and
the Gamma World form of %rest (extended rest), which the core magics dispatch here.

Each magic declares its syntax (syntax.py), gets its line parsed once and calls ONE session
method; the rules live in gammaworld/rules.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from IPython.core.magic import line_magic, magics_class

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.limits import whole_number
from gamekernel.magic_base import EXPLAIN, Secret, SessionMagics, explainable, guarded
from gamekernel.syntax import Args, Flag, Sub, Words, command

if TYPE_CHECKING:  # the table's core and the handles its calls reach (imported on first use, below)
    from gamekernel.gammaworld.actions import GammaWorld
    from gamekernel.rulesets import Core


def _gw(session: Core) -> GammaWorld:
    """Gamma World's handle on the session, typed; imported on the first command (`%load_ext` stays light)."""
    from gamekernel.gammaworld.actions import GammaWorld

    return GammaWorld.of(session)


_COUNT = re.compile(r"^[x×*](\d+)$|^(\d+)[x×]$", re.IGNORECASE)
_SIGNED = re.compile(r"^[+-]?\d+$")


def _name_and_card(args: Args, usage: str) -> tuple[str, str]:
    """`Rin "Sap Bloom"`, `Rin Sap Bloom` or `"Sap Bloom" @Rin` -> ("Rin", "Sap Bloom")."""
    name, card = _name_and_maybe_card(args, usage)
    if card is None:
        raise UsageError(t("gammaworld.err.name_card", usage=usage))
    return name, card


def _name_and_maybe_card(args: Args, usage: str) -> tuple[str, str | None]:
    """`Rin "Sap Bloom"` -> ("Rin", "Sap Bloom"); `Rin` alone -> ("Rin", None)."""
    words = list(args.what)
    if args.actor:
        name, rest = args.actor, words
    elif words:
        name, rest = words[0], words[1:]
    else:
        raise UsageError(t("gammaworld.err.usage", usage=usage))
    return name, " ".join(rest) or None


def _int(text: str, what: str) -> int:
    """`text` as an integer; `what` is the message key naming the number."""
    if not _SIGNED.match(text):
        raise UsageError(t("gammaworld.err.whole_number", what=t(what), text=text))
    return whole_number(text, t(what), limit="max_count")


def gw_rest(session: Core, args: Args) -> object:
    """`%rest @Rin` / `%rest Rin Bren` / `%rest` (everyone): extended rest, GW-ALPHA-11.
    `--no-draw` returns the cards and shuffles but lets decks be edited before `%draw alpha`."""
    names = list(args.names)
    if args.actor:
        names = [args.actor, *names]
    return _gw(session).rest(names, draw=not args.no_draw)


_DECK_USAGE = '%deck new|add|remove|validate|show|odds|gm|load ... e.g. %deck add Rin "Sap Bloom" x2'


def _deck_sub(name: str, help: str, metavar: str = "NAME") -> Sub:
    return Sub(name, Words("words", optional=True, metavar=metavar), help=help)


@magics_class
class GammaWorldMagics(SessionMagics):
    """Gamma World Alpha Mutation decks."""

    @line_magic
    @guarded("deck")
    @command("deck",
             subs=(_deck_sub("new", "a new alpha deck: %deck new Rin alpha", "NAME alpha"),
                   _deck_sub("add", 'add cards: %deck add Rin "Sap Bloom" x2', "NAME CARD [x2]"),
                   _deck_sub("remove", "take cards out", "NAME CARD [x1]"),
                   _deck_sub("validate", "check the deck against the rules"),
                   _deck_sub("show", "the deck's cards"),
                   _deck_sub("odds", 'the odds of drawing a card: %deck odds Rin "Sap Bloom" 3', "NAME CARD DRAWS"),
                   _deck_sub("gm", "set up the GM deck", "[CARD...]"),
                   _deck_sub("load", "load card definitions", "FILE.json")),
             actor="the deck's owner (instead of NAME)",
             options=(Flag("gm", "the GM's view of show and odds: the true deck (a secret flux's draw included), "
                                       "marked GM-only"),),
             group="gammaworld", unknown="gammaworld.err.deck_action")
    def deck(self, args: Args):
        """Alpha decks: `%deck new Rin alpha`, `%deck add Rin "Sap Bloom" x2`, `%deck validate Rin`."""
        action, rest = args.sub, list(args.words)
        if args.actor:
            rest = [args.actor, *rest]
        session = self.session
        if action == "gm":
            return _gw(session).setup(rest)
        if action == "load":
            if len(rest) != 1:
                raise UsageError(t("gammaworld.err.usage", usage="%deck load my-cards.json"))
            return _gw(session).load_cards(rest[0])
        if not rest:
            raise UsageError(t("gammaworld.err.name_owner", usage=_DECK_USAGE))
        owner, rest = rest[0], rest[1:]
        if action == "new":
            if rest and [w.lower() for w in rest] != ["alpha"]:
                raise UsageError(t("gammaworld.err.alpha_only", got=" ".join(rest)))
            return _gw(session).deck_new(owner)
        if action in ("add", "remove"):
            count = 1
            if rest and (match := _COUNT.match(rest[-1])):
                count = whole_number(match.group(1) or match.group(2), t("limits.what.copies"), limit="max_count")
                rest = rest[:-1]
            if not rest:
                raise UsageError(t("gammaworld.err.name_card", usage=f'%deck {action} {owner} "Sap Bloom" x2'))
            card = " ".join(rest)
            if action == "add":
                return _gw(session).deck_add(owner, card, count)
            return _gw(session).deck_remove(owner, card, count)
        if action == "validate":
            return _gw(session).deck_validate(owner)
        if action == "show":
            return _gw(session).deck_show(owner, gm=args.gm)
        if len(rest) < 2:
            raise UsageError(t("gammaworld.err.usage", usage='%deck odds Rin "Sap Bloom" 3'))
        draws = _int(rest[-1], "gammaworld.what.draws")
        return _gw(session).deck_odds(owner, " ".join(rest[:-1]), draws, gm=args.gm)

    @line_magic
    @guarded("draw")
    @command("draw", Words("what", "alpha [NAME]", optional=True, metavar="alpha"),
             actor="who draws (default: every character short of readied cards)",
             options=(Flag("gm", "draw from the GM deck instead of your own"),), group="gammaworld")
    def draw(self, args: Args):
        """Draw readied alpha cards by level (1-3: 1, 4-7: 2, 8+: 3): `%draw alpha @Rin`."""
        words = args.what
        if not words or words[0].lower() not in ("alpha", "アルファ"):
            raise UsageError(t("gammaworld.err.usage", usage="%draw alpha [@Name] [--gm]"))
        name = args.actor or (" ".join(words[1:]) or None)
        return _gw(self.session).draw(name, from_gm=args.gm)

    @line_magic
    @guarded("hand")
    @command("hand", Words("name", "whose readied cards", optional=True, metavar="NAME"),
             actor="whose readied cards (instead of NAME)",
             options=(Flag("static", "a plain result instead of the interactive widget"),
                      Flag("gm", "the GM's view: the true hand, a secret flux and the card it put in marked secret, "
                           "and what the players see instead (a plain result)")),
             group="gammaworld")
    def hand(self, args: Args):
        """Show a character's readied alpha cards (widget: click to tap, overcharge, resolve flux)."""
        name = args.actor or " ".join(args.name)
        if not name:
            raise UsageError(t("gammaworld.err.usage", usage="%hand Rin"))
        view = _gw(self.session).hand(name, gm=args.gm)
        if args.static or args.gm:
            return view
        from gamekernel.gammaworld.widgets.hand import HandWidget

        return HandWidget(self.session, view.name)

    @line_magic
    @guarded("tap")
    @command("tap", Words("what", "NAME CARD: the readied card", optional=True, metavar="NAME CARD"),
             actor="who uses the power (instead of NAME)", group="gammaworld")
    def tap(self, args: Args):
        """Use a readied card's power (once per encounter): `%tap Rin "Sap Bloom"`."""
        name, card = _name_and_card(args, '%tap Rin "Sap Bloom"')
        return _gw(self.session).tap(name, card)

    @line_magic
    @guarded("untap")
    @command("untap", Words("what", "NAME CARD: the tapped card", optional=True, metavar="NAME CARD"),
             actor="whose card (instead of NAME)", group="gammaworld")
    def untap(self, args: Args):
        """Turn a tapped card back (a correction or a card effect): `%untap Rin "Sap Bloom"`."""
        name, card = _name_and_card(args, '%untap Rin "Sap Bloom"')
        return _gw(self.session).untap(name, card)

    @line_magic
    @guarded("overcharge")
    @command("overcharge", Words("what", "NAME CARD, or odds [+BONUS]", optional=True, metavar="NAME CARD"),
             actor="who overcharges (instead of NAME)", options=(EXPLAIN,), group="gammaworld")
    @explainable
    def overcharge(self, args: Args):
        """Overcharge a power (d20 + origin bonus, 10+): `%overcharge Rin "Gravity Knot"`; `%overcharge odds +2`."""
        words = args.what
        if words and words[0].lower() == "odds" and args.actor is None:
            if len(words) > 1:
                return _gw(self.session).odds(bonus=_int(words[1], "gammaworld.what.bonus"))
            return _gw(self.session).odds()
        name, card = _name_and_card(args, '%overcharge Rin "Gravity Knot"')
        return _gw(self.session).overcharge(name, card)

    @line_magic
    @guarded("flux")
    @command("flux", Words("what", "NAME [CARD] (the card may be omitted with one readied card), or odds N",
                           optional=True, metavar="NAME CARD"),
             actor="who resolves the flux (instead of NAME)",
             options=(Flag("force", "a flux the GM calls without a natural 1"), EXPLAIN), group="gammaworld")
    @explainable
    def flux(self, args: Args):
        """Resolve Alpha Flux: `%flux Rin "Sap Bloom"` (discard it, draw from the GM deck); `%flux odds 5`."""
        words = args.what
        if words and words[0].lower() == "odds" and args.actor is None:
            if len(words) > 1:
                return _gw(self.session).odds(rolls=_int(words[1], "gammaworld.what.rolls"))
            return _gw(self.session).odds()
        name, card = _name_and_maybe_card(args, '%flux Rin "Sap Bloom" [--force]')
        result = _gw(self.session).flux(name, card, force=args.force)
        return Secret(result) if result.step.resolves_secret else result  # GW-ALPHA-10: as secret as its roll

    @line_magic
    @guarded("encounter")
    @command("encounter",
             subs=(Sub("start", help="natural 1s now cause alpha flux", aliases=("開始",)),
                   Sub("end", help="discard and redraw readied cards", aliases=("終了",))),
             options=(Flag("force", "end: refresh readied cards with no encounter running"),),
             group="gammaworld", unknown="gammaworld.err.encounter_usage")
    def encounter(self, args: Args):
        """`%encounter start` (natural 1s now flux), `%encounter end` (discard and redraw readied cards)."""
        if args.sub == "start":
            return _gw(self.session).encounter_start()
        return _gw(self.session).encounter_end(force=args.force)

    @line_magic
    @guarded("gw")
    @command("gw", Words("record", "NAME level N [bonus +B]", optional=True, metavar="NAME level N [bonus +B]"),
             subs=(Sub("config", Words("settings", "flux_outside_encounter=true ...", optional=True,
                                       metavar="OPTION=VALUE"), help="Gamma World options"),
                   Sub("new", Words("record", "NAME [level N] [bonus +B]", optional=True,
                                    metavar="NAME [level N]"), help="add a Gamma World character")),
             actor="whose record (instead of NAME)", group="gammaworld")
    def gw(self, args: Args):
        """Gamma World records: `%gw Rin level 4 bonus +2`; options: `%gw config flux_outside_encounter=true`."""
        usage = "%gw Rin level 4 [bonus +2] | %gw config option=value"
        if args.sub == "config":
            options = {}
            for word in args.settings:
                key, sep, value = word.partition("=")
                if not sep:
                    raise UsageError(t("gammaworld.err.option_value", word=word))
                options[key] = _option_value(value)
            if not options:
                raise UsageError(t("gammaworld.err.usage", usage=usage))
            return _gw(self.session).config(**options)
        words = [args.actor, *args.record] if args.actor else list(args.record)
        if not words:
            raise UsageError(t("gammaworld.err.usage", usage=usage))
        name, rest = words[0], words[1:]
        level = bonus = None
        if len(rest) % 2:
            raise UsageError(t("gammaworld.err.usage", usage=usage))
        for key, value in zip(rest[::2], rest[1::2], strict=True):
            if key.lower() in ("level", "lv", "レベル"):
                level = _int(value, "gammaworld.what.level")
            elif key.lower() in ("bonus", "origin", "ボーナス"):
                bonus = _int(value, "gammaworld.what.origin_bonus")
            else:
                raise UsageError(t("gammaworld.err.character_field", field=key, usage=usage))
        return _gw(self.session).character(name, level=level, origin_bonus=bonus, new=args.sub == "new")


def _option_value(text: str):
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if _SIGNED.match(text):
        return int(text)
    return text


MAGICS: list = [GammaWorldMagics]
