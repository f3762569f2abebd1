"""Gamma World magics (%deck, %draw, %hand, %tap, %untap, %overcharge, %flux, %encounter, %gw) and
the Gamma World form of %rest (extended rest), which the core magics dispatch here.

Magics only parse the line and call ONE session method; the rules live in systems/gammaworld.
"""

from __future__ import annotations

import re
import shlex

from IPython.core.magic import line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.magics._base import SessionMagics, guarded, split_line
from gamekernel.magics.syntax import Args

_COUNT = re.compile(r"^[x×*](\d+)$|^(\d+)[x×]$", re.IGNORECASE)
_SIGNED = re.compile(r"^[+-]?\d+$")


def _words(text: str, usage: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as error:
        raise UsageError(t("gammaworld.err.quotes", error=error, text=text, usage=usage)) from None


def _name_and_card(line: str, usage: str, *, card_required: bool = True) -> tuple[str, str | None]:
    """`Rin "Sap Bloom"`, `Rin Sap Bloom` or `"Sap Bloom" @Rin` -> ("Rin", "Sap Bloom")."""
    parsed = split_line(line, flags=("force",))
    words = _words(parsed.text, usage)
    if parsed.actor:
        name, rest = parsed.actor, words
    elif words:
        name, rest = words[0], words[1:]
    else:
        raise UsageError(t("gammaworld.err.usage", usage=usage))
    card = " ".join(rest) or None
    if card_required and card is None:
        raise UsageError(t("gammaworld.err.name_card", usage=usage))
    return name, card


def _int(text: str, what: str) -> int:
    """`text` as an integer; `what` is the message key naming the number."""
    if not _SIGNED.match(text):
        raise UsageError(t("gammaworld.err.whole_number", what=t(what), text=text))
    return int(text)


def gw_rest(session, args: Args):
    """`%rest @Rin` / `%rest Rin Bren` / `%rest` (everyone): extended rest, GW-ALPHA-11.
    `--no-draw` returns the cards and shuffles but lets decks be edited before `%draw alpha`."""
    names = list(args.names)
    if args.actor:
        names = [args.actor, *names]
    return session.gw_rest(names, draw=not args.no_draw)


@magics_class
class GammaWorldMagics(SessionMagics):
    """Gamma World Alpha Mutation decks."""

    @magic_arguments()
    @argument(
        "action",
        nargs="*",
        help="new NAME alpha | add NAME CARD [x2] | remove NAME CARD [x1] | "
        "validate NAME | show NAME | odds NAME CARD DRAWS | gm [CARD ...] | load FILE.json",
    )
    @line_magic
    @guarded("deck")
    def deck(self, line: str = ""):
        """Alpha decks: `%deck new Rin alpha`, `%deck add Rin "Sap Bloom" x2`, `%deck validate Rin`."""
        usage = '%deck new|add|remove|validate|show|odds|gm|load ... e.g. %deck add Rin "Sap Bloom" x2'
        parsed = split_line(line, flags=())
        words = _words(parsed.text, usage)
        if not words:
            raise UsageError(t("gammaworld.err.usage", usage=usage))
        action, rest = words[0].lower(), words[1:]
        if parsed.actor:
            rest = [parsed.actor, *rest]
        session = self.session
        if action == "gm":
            return session.gw_setup(rest)
        if action == "load":
            if len(rest) != 1:
                raise UsageError(t("gammaworld.err.usage", usage="%deck load my-cards.json"))
            return session.gw_load_cards(rest[0])
        if not rest:
            raise UsageError(t("gammaworld.err.name_owner", usage=usage))
        owner, rest = rest[0], rest[1:]
        if action == "new":
            if rest and [w.lower() for w in rest] != ["alpha"]:
                raise UsageError(t("gammaworld.err.alpha_only", got=" ".join(rest)))
            return session.deck_new(owner)
        if action in ("add", "remove"):
            count = 1
            if rest and _COUNT.match(rest[-1]):
                match = _COUNT.match(rest[-1])
                count = int(match.group(1) or match.group(2))
                rest = rest[:-1]
            if not rest:
                raise UsageError(t("gammaworld.err.name_card", usage=f'%deck {action} {owner} "Sap Bloom" x2'))
            card = " ".join(rest)
            if action == "add":
                return session.deck_add(owner, card, count)
            return session.deck_remove(owner, card, count)
        if action == "validate":
            return session.deck_validate(owner)
        if action == "show":
            return session.deck_show(owner)
        if action == "odds":
            if len(rest) < 2:
                raise UsageError(t("gammaworld.err.usage", usage='%deck odds Rin "Sap Bloom" 3'))
            return session.deck_odds(owner, " ".join(rest[:-1]), _int(rest[-1], "gammaworld.what.draws"))
        raise UsageError(t("gammaworld.err.deck_action", action=action, usage=usage))

    @magic_arguments()
    @argument("what", help="alpha")
    @argument("@Name", nargs="?", help="Who draws (default: every character short of readied cards).")
    @argument("--gm", action="store_true", help="Draw from the GM deck instead of your own.")
    @line_magic
    @guarded("draw")
    def draw(self, line: str = ""):
        """Draw readied alpha cards by level (1-3: 1, 4-7: 2, 8+: 3): `%draw alpha @Rin`."""
        parsed = split_line(line, flags=("gm",))
        words = _words(parsed.text, "%draw alpha [@Name] [--gm]")
        if not words or words[0].lower() not in ("alpha", "アルファ"):
            raise UsageError(t("gammaworld.err.usage", usage="%draw alpha [@Name] [--gm]"))
        name = parsed.actor or (" ".join(words[1:]) or None)
        return self.session.draw_alpha(name, from_gm=parsed.flag("gm"))

    @magic_arguments()
    @argument("name", help="Whose readied cards (also @Name).")
    @argument("--static", action="store_true", help="A plain result instead of the interactive widget.")
    @line_magic
    @guarded("hand")
    def hand(self, line: str = ""):
        """Show a character's readied alpha cards (widget: click to tap, overcharge, resolve flux)."""
        parsed = split_line(line, flags=("static",))
        name = parsed.actor or parsed.text.strip().strip("\"'")
        if not name:
            raise UsageError(t("gammaworld.err.usage", usage="%hand Rin"))
        view = self.session.hand(name)
        if parsed.flag("static"):
            return view
        from gamekernel.widgets.hand import HandWidget

        return HandWidget(self.session, view.name)

    @magic_arguments()
    @argument("name", help="Who uses the power (also @Name).")
    @argument("card", nargs="*", help="The readied card.")
    @line_magic
    @guarded("tap")
    def tap(self, line: str = ""):
        """Use a readied card's power (once per encounter): `%tap Rin "Sap Bloom"`."""
        name, card = _name_and_card(line, '%tap Rin "Sap Bloom"')
        return self.session.tap(name, card)

    @magic_arguments()
    @argument("name", help="Whose card (also @Name).")
    @argument("card", nargs="*", help="The readied card.")
    @line_magic
    @guarded("untap")
    def untap(self, line: str = ""):
        """Turn a tapped card back (a correction or a card effect): `%untap Rin "Sap Bloom"`."""
        name, card = _name_and_card(line, '%untap Rin "Sap Bloom"')
        return self.session.untap(name, card)

    @magic_arguments()
    @argument("name", help="Who overcharges (also @Name), or `odds [+bonus]`.")
    @argument("card", nargs="*", help="The readied card.")
    @line_magic
    @guarded("overcharge")
    def overcharge(self, line: str = ""):
        """Overcharge a power (d20 + origin bonus, 10+): `%overcharge Rin "Gravity Knot"`; `%overcharge odds +2`."""
        words = line.split()
        if words and words[0].lower() == "odds":
            bonus = _int(words[1], "gammaworld.what.bonus") if len(words) > 1 else None
            return self.session.gw_odds(bonus=bonus) if bonus is not None else self.session.gw_odds()
        name, card = _name_and_card(line, '%overcharge Rin "Gravity Knot"')
        return self.session.overcharge(name, card)

    @magic_arguments()
    @argument("name", help="Who resolves the flux (also @Name), or `odds N`.")
    @argument("card", nargs="*", help="The readied card to discard (may be omitted with one readied card).")
    @argument("--force", action="store_true", help="A flux the GM calls without a natural 1.")
    @line_magic
    @guarded("flux")
    def flux(self, line: str = ""):
        """Resolve Alpha Flux: `%flux Rin "Sap Bloom"` (discard it, draw from the GM deck); `%flux odds 5`."""
        words = line.split()
        if words and words[0].lower() == "odds":
            rolls = _int(words[1], "gammaworld.what.rolls") if len(words) > 1 else None
            return self.session.gw_odds(rolls=rolls) if rolls is not None else self.session.gw_odds()
        name, card = _name_and_card(line, '%flux Rin "Sap Bloom" [--force]', card_required=False)
        return self.session.flux(name, card, force=split_line(line, flags=("force",)).flag("force"))

    @magic_arguments()
    @argument("action", help="start | end")
    @line_magic
    @guarded("encounter")
    def encounter(self, line: str = ""):
        """`%encounter start` (natural 1s now flux), `%encounter end` (discard and redraw readied cards)."""
        action = line.strip().lower()
        if action in ("start", "開始"):
            return self.session.encounter_start()
        if action in ("end", "終了"):
            return self.session.encounter_end()
        raise UsageError(t("gammaworld.err.encounter_usage", got=line.strip()))

    @magic_arguments()
    @argument("args", nargs="*", help="NAME level N [bonus +B] | config option=value ...")
    @line_magic
    @guarded("gw")
    def gw(self, line: str = ""):
        """Gamma World records: `%gw Rin level 4 bonus +2`; options: `%gw config flux_outside_encounter=true`."""
        usage = "%gw Rin level 4 [bonus +2] | %gw config option=value"
        parsed = split_line(line, flags=())
        words = _words(parsed.text, usage)
        if parsed.actor:
            words = [parsed.actor, *words]
        if not words:
            raise UsageError(t("gammaworld.err.usage", usage=usage))
        if words[0].lower() == "config":
            options = {}
            for word in words[1:]:
                key, sep, value = word.partition("=")
                if not sep:
                    raise UsageError(t("gammaworld.err.option_value", word=word))
                options[key] = _option_value(value)
            if not options:
                raise UsageError(t("gammaworld.err.usage", usage=usage))
            return self.session.gw_config(**options)
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
        return self.session.gw_character(name, level=level, origin_bonus=bonus)


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
