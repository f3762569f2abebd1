"""GURPS success rolls: 3d against an effective skill, criticals, margins, refusal below 3.

Public API (stable; the combat helper builds on it):

    success_roll(base, modifiers=(), *, label="", actor="", rng=None, dice=None,
                 defense=False, kind="skill") -> SuccessRoll
    roll_3d6(rng) -> tuple[int, int, int]
    is_success(total, target), is_critical_success(total, target), is_critical_failure(total, target)
    classify(total, target) -> (success: bool, critical: "success" | "failure" | None)
    normalize_modifiers(mods) -> tuple[Modifier, ...]        # ints, (value, label) pairs or Modifier
    parse_check_spec(text) -> CheckSpec                      # "Lockpicking-5 dark", "IQ-5", "A | B-2"
    parse_side(text) -> CheckSpec                            # a contest side: "Aiko:Stealth", "14"
    split_vs(text) -> list[str]                              # "A vs B" / "A 対 B" -> ["A", "B"]
    best_alternative(spec, resolve=None) -> ResolvedCheck    # the one choice of a fallback chain

Rules: GURPS-SR-02..08 [004:44-83]. Modifiers change the target, never the dice (SR-04). A target
below 3 is not rolled unless the roll is a defense (SR-05); the refusal is a result with a reason,
not an exception, so the log shows why nothing was rolled.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

from gamekernel.dice.nodes import faces
from gamekernel.display import Displayable
from gamekernel.errors import NotFoundError, RuleError, UsageError
from gamekernel.i18n import t
from gamekernel.rng import TransactionalRandom
from gamekernel.text import half_width, visible

MIN_TARGET = 3  # GURPS-SR-05


class Modifier(NamedTuple):
    """One labelled modifier to a target number: (value, label), e.g. (-5, "dark")."""

    value: int
    label: str = ""


ModifierLike = int | tuple[int, str] | Modifier  # what a caller may give as one modifier


class CheckSpecError(UsageError):
    """A check spec ("Lockpicking-5 dark") could not be parsed; the message names the column."""


def normalize_modifiers(mods: Iterable[ModifierLike] = ()) -> tuple[Modifier, ...]:
    """Accept ints, (value, label) pairs or Modifier values and return Modifiers."""
    out = []
    for mod in mods:
        if isinstance(mod, bool):
            raise UsageError(t("gurps.err.modifier_int", mod=mod))
        if isinstance(mod, int):
            out.append(Modifier(mod, ""))
        else:
            value, label = mod
            out.append(Modifier(int(value), str(label or "")))
    return tuple(out)


# ---------------------------------------------------------------- the rule itself (GURPS-SR-02..08)


def is_critical_success(total: int, target: int) -> bool:
    """GURPS-SR-07: 3-4 always; 5 at target 15+; 6 at target 16+."""
    return total <= 4 or (total == 5 and target >= 15) or (total == 6 and target >= 16)


def is_critical_failure(total: int, target: int) -> bool:
    """GURPS-SR-08: 18 always; 17 at target 15 or less; any roll of target+10 or more.

    A 3 or 4 is a critical success whatever the target (SR-03), so it is never a critical failure.
    """
    if total <= 4:
        return False
    return total >= 18 or (total == 17 and target <= 15) or total >= target + 10


def is_success(total: int, target: int) -> bool:
    """GURPS-SR-02/03: total <= target succeeds; 3-4 always succeed; 17-18 always fail."""
    if total <= 4:
        return True
    if total >= 17:
        return False
    return total <= target


def classify(total: int, target: int) -> tuple[bool, str | None]:
    """(success, critical) for a 3d total against an effective target."""
    if is_critical_success(total, target):
        return True, "success"
    if is_critical_failure(total, target):
        return False, "failure"
    return is_success(total, target), None


# ---------------------------------------------------------------- dice


def roll_3d6(rng: random.Random) -> tuple[int, int, int]:
    """Three d6 faces from the given RNG (never the global one): `randint(1, 6)` three times. The
    session's generator is drawn from as `randint` draws, the same words counted alike, without its
    three Python calls a die (gamekernel.dice.nodes `faces`); any other, a test's scripted dice
    included, through its own `randint`."""
    if type(rng) is TransactionalRandom:
        first, second, third = faces(rng, 3, 6)
        return (first, second, third)
    return (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))


def _check_dice(dice: Iterable[int], count: int = 3) -> tuple[int, ...]:
    faces = tuple(int(d) for d in dice)
    if len(faces) != count or any(not 1 <= d <= 6 for d in faces):
        raise UsageError(t("gurps.err.dice_faces", count=count, faces=list(faces)))
    return faces


# ---------------------------------------------------------------- the result


@dataclass(frozen=True)
class SuccessRoll(Displayable):
    """One success roll with its whole working: base, labelled modifiers, target, dice, verdict, odds.

    `margin` is target - total (positive = margin of success, negative = margin of failure, SR-06);
    it is None when the roll was refused. `critical` is "success", "failure" or None.
    `refused` holds the reason when nothing was rolled (target below 3, SR-05).
    """

    label: str
    base: int
    modifiers: tuple[Modifier, ...]
    target: int
    dice: tuple[int, ...]
    total: int | None
    success: bool
    margin: int | None
    critical: str | None
    refused: str | None
    odds: CheckOdds
    actor: str = ""
    kind: str = "skill"
    defense: bool = False
    secret: bool = False
    notes: tuple[str, ...] = ()

    @property
    def margin_of_success(self) -> int:
        """SR-06 for contests: target - roll on a success (never negative), else 0."""
        if not self.success or self.margin is None:
            return 0
        return max(0, self.margin)

    @property
    def margin_of_failure(self) -> int:
        """SR-06 for contests: roll - target on a failure (0 for an automatic 17/18 failure above target)."""
        if self.success or self.margin is None:
            return 0
        return max(0, -self.margin)

    @property
    def rolled(self) -> bool:
        return self.refused is None

    def to_dict(self) -> dict:
        """Plain JSON-able form for the event log (outcome included, replays without the RNG)."""
        return {
            "label": self.label,
            "base": self.base,
            "modifiers": [[m.value, m.label] for m in self.modifiers],
            "target": self.target,
            "dice": list(self.dice),
            "total": self.total,
            "success": self.success,
            "margin": self.margin,
            "critical": self.critical,
            "refused": self.refused,
            "actor": self.actor,
            "kind": self.kind,
            "defense": self.defense,
            "secret": self.secret,
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, data: dict) -> SuccessRoll:
        """Rebuild from `to_dict` output (re-deriving the verdict from the stored dice)."""
        dice = tuple(data.get("dice") or ())
        result = success_roll(
            int(data["base"]),
            [tuple(m) for m in data.get("modifiers", [])],
            label=data.get("label", ""),
            actor=data.get("actor", ""),
            dice=dice or None,
            defense=bool(data.get("defense", False)),
            kind=data.get("kind", "skill"),
            notes=tuple(data.get("notes", ())),
            always_roll=bool(dice),
            _no_dice_ok=not dice,
        )
        if data.get("secret"):
            result = _replace(result, secret=True)
        return result

    def __repr__(self) -> str:
        return f"<SuccessRoll {self}>"


def _replace(result: SuccessRoll, **changes: Any) -> SuccessRoll:  # any of SuccessRoll's fields
    from dataclasses import replace

    return replace(result, **changes)


@dataclass(frozen=True)
class CheckOdds(Displayable):
    """Exact odds of one success roll (GURPS-SR-02..08 over all 216 outcomes of 3d)."""

    target: int
    success: Fraction
    critical_success: Fraction
    critical_failure: Fraction
    # every total of 3d: (total, ways of 216, succeeds, "success"/"failure" when critical), for the chart
    outcomes: tuple[tuple[int, int, bool, str | None], ...] = ()

    def __repr__(self) -> str:
        return f"<CheckOdds {self}>"


def success_roll(
    base: int,
    modifiers: Iterable[int | tuple[int, str] | Modifier] = (),
    *,
    label: str = "",
    actor: str = "",
    rng: random.Random | None = None,
    dice: Iterable[int] | None = None,
    defense: bool = False,
    kind: str = "skill",
    notes: tuple[str, ...] = (),
    always_roll: bool = False,
    _no_dice_ok: bool = False,
) -> SuccessRoll:
    """Roll 3d against base + modifiers (GURPS-SR-02..08).

    Give either `dice` (three faces, for tests and replay) or `rng` (a random.Random). A target below
    3 is refused (no dice used) unless `defense` is true (GURPS-SR-05) or `always_roll` (rolls the
    GM imposes: fright checks, self-control, contests).
    """
    mods = normalize_modifiers(modifiers)
    target = int(base) + sum(m.value for m in mods)
    odds = check_odds(target)
    common: dict[str, Any] = dict(  # the fields every outcome shares
        label=label, base=int(base), modifiers=mods, target=target, odds=odds,
        actor=actor, kind=kind, defense=defense, notes=tuple(notes),
    )
    if target < MIN_TARGET and not (defense or always_roll):
        return SuccessRoll(
            dice=(), total=None, success=False, margin=None, critical=None,
            refused=f"effective skill {target} is below {MIN_TARGET}", **common,
        )
    if dice is not None:
        faces = _check_dice(dice)
    elif rng is not None:
        faces = roll_3d6(rng)
    elif _no_dice_ok:
        faces = ()
    else:
        raise UsageError(t("gurps.err.success_roll_dice"))
    if not faces:
        return SuccessRoll(dice=(), total=None, success=False, margin=None, critical=None,
                           refused="no dice recorded", **common)
    total = sum(faces)
    success, critical = classify(total, target)
    return SuccessRoll(
        dice=faces, total=total, success=success, margin=target - total, critical=critical,
        refused=None, **common,
    )


def refused_text(roll: SuccessRoll) -> str:
    """Why `roll` was not rolled, in the current language (the result keeps its English reason)."""
    if roll.refused == "no dice recorded":
        return t("gurps.err.refused.no_dice")
    if roll.refused is not None and roll.target < MIN_TARGET:
        return t("gurps.err.refused.below", target=roll.target, minimum=MIN_TARGET)
    return roll.refused or ""


def best_of(rolls: Iterable[SuccessRoll]) -> SuccessRoll:
    """Luck (GURPS-ADV-19): the best of several rolls at the same target (lowest total)."""
    rolled = [(r.total, r) for r in rolls if r.total is not None]
    if not rolled:
        raise UsageError(t("gurps.err.best_of_empty"))
    return min(rolled, key=lambda pair: pair[0])[1]


# ---------------------------------------------------------------- check specs


@dataclass(frozen=True)
class CheckTarget:
    """One alternative of a check spec: a name (skill/attribute) or a raw number, with its modifiers."""

    name: str | None
    number: int | None
    modifiers: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class CheckSpec:
    """What "Lockpicking-5 dark | IQ-5 @Aiko --secret" means, before any character is looked up.

    `alternatives` is the fallback chain (best wins, GGA style); each keeps its own modifiers.
    """

    alternatives: tuple[CheckTarget, ...]
    actor: str | None = None
    secret: bool = False
    defense: bool = False
    text: str = field(default="", compare=False)


_SIGNS = {"−": "-", "–": "-", "—": "-", "＋": "+", "－": "-", "﹣": "-", "﹢": "+"}
_MOD_RE = re.compile(r"([+-])\s*(\d+)")
_NAME_STOP = re.compile(r"[+-]\s*\d")
_QUOTED = re.compile(r"([\"'])(.+?)\1(?=\s*(?:[+-]\s*\d|$))")  # the closing quote: before a modifier or the end


def _normalize(text: str) -> str:
    text = visible(half_width(text))  # labels and names as read: no bidi or zero-width controls
    for old, new in _SIGNS.items():
        text = text.replace(old, new)
    return text


def _parse_alternative(chunk: str, offset: int) -> CheckTarget:
    """`Name[±N label...]...` or `N[±N label...]`; offset = column of chunk start (0-based)."""
    stripped_left = len(chunk) - len(chunk.lstrip())
    body = chunk.strip()
    column = offset + stripped_left + 1
    if not body:
        raise CheckSpecError(t("gurps.err.spec.expected_target", column=column))
    for prefix in ("S:", "Sk:", "s:", "sk:"):
        if body.startswith(prefix):
            body = body[len(prefix):].lstrip()
            column += len(prefix)
            break
    quoted = _QUOTED.match(body)
    if quoted:  # a quoted name is whole, signs and digits included ("Skills at 16-20"-2)
        head, rest = body[: quoted.end()], body[quoted.end():].lstrip()
        match = None
    else:
        match = _NAME_STOP.search(body)
        head, rest = (body[: match.start()], body[match.start():]) if match else (body, "")
    head = head.strip()
    name: str | None
    number: int | None = None
    if re.fullmatch(r"\d+", head):
        name, number = None, int(head)
    elif not head and match and match.start() == 0:
        raise CheckSpecError(t("gurps.err.spec.target_before", sign=rest[0], column=column))
    else:
        name = head.strip("〈〉<>").strip()
        if len(name) >= 2 and name[0] == name[-1] and name[0] in "\"'":  # a quoted name: the quotes are not in it
            name = name[1:-1].strip()
        bad = None if quoted else re.search(r"\+|-(?=\s|$)", head)
        if bad:
            raise CheckSpecError(t("gurps.err.spec.number_after", sign=bad.group(0), column=column + bad.start()))
        if re.search(r"\d", name) and not re.search(r"[A-Za-z\u3040-\u9fff]", name):
            raise CheckSpecError(t("gurps.err.spec.unexpected", word=name, column=column))
    modifiers = []
    position = len(body) - len(rest)
    while rest:
        mod = _MOD_RE.match(rest)
        if not mod:
            # A sign with no number: report where.
            if rest[0] in "+-":
                raise CheckSpecError(t("gurps.err.spec.number_after", sign=rest[0], column=column + position + 1))
            raise CheckSpecError(t("gurps.err.spec.unexpected", word=rest.split()[0], column=column + position))
        value = int(mod.group(2)) * (-1 if mod.group(1) == "-" else 1)
        after = rest[mod.end():]
        nxt = _NAME_STOP.search(after)
        label_text, rest = (after[: nxt.start()], after[nxt.start():]) if nxt else (after, "")
        position += mod.end() + len(label_text)
        label = label_text.strip().strip('"\'').strip()
        if label.startswith("(") and label.endswith(")"):
            label = label[1:-1].strip()
        if label.lower().startswith("for "):
            label = label[4:].strip()
        modifiers.append(Modifier(value, label))
    return CheckTarget(name=name or None, number=number, modifiers=tuple(modifiers))


def parse_modifiers(text: str) -> tuple[Modifier, ...]:
    """Labelled modifiers alone: "+2 good approach -1 rude" -> ((2, "good approach"), (-1, "rude"))."""
    body = _normalize(text or "").strip()
    if not body:
        return ()
    if body[0] not in "+-":
        raise CheckSpecError(t("gurps.err.spec.modifier", word=body.split()[0]))
    return _parse_alternative("0" + body, -1).modifiers


def parse_check_spec(text: str, *, offset: int = 0) -> CheckSpec:
    """Parse a check spec (pure; no character lookup).

    Examples: "Lockpicking-5 dark", "Per+2", "IQ-5", "12", "Vision", "Will-3",
    "Lockpicking | IQ-5", "鍵開け-5 暗闇", "Dodge @Aiko --secret". Full-width digits/signs accepted.
    Raises CheckSpecError (a UsageError) naming the column of the problem; `offset` is where the
    text starts in a longer line (a magic's), so the column is the line's.
    """
    if text is None or not str(text).strip():
        raise CheckSpecError(t("gurps.err.spec.empty"))
    raw = _normalize(str(text))
    actor = None
    secret = False
    defense = False
    kept: list[tuple[int, int]] = []
    # Options and @actor are whole tokens; blank them out keeping columns stable.
    for token in re.finditer(r"\S+", raw):
        word = token.group(0)
        if word in ("--secret", "-s", "--gm"):
            secret = True
        elif word == "--defense":
            defense = True
        elif word.startswith("--"):
            raise CheckSpecError(t("gurps.err.spec.option", word=word, column=offset + token.start() + 1))
        elif word.startswith("@"):
            if len(word) == 1:
                raise CheckSpecError(t("gurps.err.spec.actor", column=offset + token.start() + 1))
            actor = word[1:]
        else:
            continue
        kept.append((token.start(), token.end()))
    chars = list(raw)
    for start, end in kept:
        for i in range(start, end):
            chars[i] = " "
    body = "".join(chars)
    alternatives = []
    for chunk in body.split("|"):
        alternatives.append(_parse_alternative(chunk, offset))
        offset += len(chunk) + 1
    return CheckSpec(
        alternatives=tuple(alternatives), actor=actor, secret=secret, defense=defense, text=str(text)
    )


_VS = re.compile(r"\s+(?:vs\.?|対)\s+")
_SIDE_NOT_ACTOR = ("S", "Sk", "s", "sk")


def split_vs(text: str) -> list[str]:
    """"Aiko:Stealth vs Guard:Per" (or 対) -> ["Aiko:Stealth", "Guard:Per"]; empty parts dropped."""
    return [part.strip() for part in _VS.split(text.strip()) if part.strip()]


def parse_side(text: str) -> CheckSpec:
    """One side of a contest: "Aiko:Stealth" (the actor before the colon), "Stealth-2", "14".
    "S:Stealth" and "Sk:Stealth" name a skill, not an actor."""
    head, sep, rest = text.partition(":")
    if sep and head.strip() and head.strip() not in _SIDE_NOT_ACTOR and rest.strip():
        spec = parse_check_spec(rest.strip())
        return CheckSpec(spec.alternatives, actor=head.strip(), secret=spec.secret, defense=spec.defense, text=text)
    return parse_check_spec(text.strip())


# ---------------------------------------------------------------- resolving a spec


@dataclass(frozen=True)
class ResolvedCheck:
    """What a check spec means for one character: label, base level and labelled modifiers."""

    label: str
    base: int
    modifiers: tuple[Modifier, ...]
    defense: bool = False
    kind: str = "skill"
    notes: tuple[str, ...] = ()

    @property
    def target(self) -> int:
        return self.base + sum(m.value for m in self.modifiers)


def raw_only(spec: CheckSpec) -> bool:
    """True when every alternative is a plain number ("12", "12 | 14-2"): no character is needed."""
    return all(alt.name is None for alt in spec.alternatives)


def best_alternative(
    spec: CheckSpec, resolve: Callable[[CheckTarget, bool], ResolvedCheck] | None = None,
) -> ResolvedCheck:
    """THE choice of a fallback chain ("Lockpicking | IQ-5", "12 | 14"): every alternative is
    resolved (names by `resolve`, a character's lookup; numbers as they are) and the highest effective
    target wins. Alternatives the character cannot use are skipped; if none is usable, the first
    alternative's error is raised. Checks, odds and contests all choose here."""
    candidates: list[ResolvedCheck] = []
    errors: list[Exception] = []
    for alt in spec.alternatives:
        if resolve is not None:
            try:
                candidates.append(resolve(alt, spec.defense))
            except (NotFoundError, RuleError) as error:
                errors.append(error)
        elif alt.name is None:
            candidates.append(ResolvedCheck("", int(alt.number or 0), alt.modifiers, spec.defense, "raw"))
        else:
            raise UsageError(t("gurps.err.no_active"))
    if not candidates:
        raise errors[0]
    return max(candidates, key=lambda c: c.target)


# ---------------------------------------------------------------- the exact odds of a success roll
# (GURPS-SR-02..08 over the 216 equally likely totals of 3d, judged by `classify` as a roll is)

OUTCOMES_3D6 = 216


@cache
def three_d6_counts() -> dict[int, int]:
    """Number of ways to roll each total 3..18 on 3d6."""
    counts: dict[int, int] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                counts[a + b + c] = counts.get(a + b + c, 0) + 1
    return counts


@cache
def check_odds(target: int) -> CheckOdds:
    """CheckOdds(target, success, critical_success, critical_failure) as exact Fractions."""
    success = crit_success = crit_failure = 0
    outcomes = []
    for total, ways in sorted(three_d6_counts().items()):
        ok, critical = classify(total, target)
        outcomes.append((total, ways, ok, critical))
        success += ways if ok else 0
        crit_success += ways if critical == "success" else 0
        crit_failure += ways if critical == "failure" else 0
    return CheckOdds(
        target=target,
        success=Fraction(success, OUTCOMES_3D6),
        critical_success=Fraction(crit_success, OUTCOMES_3D6),
        critical_failure=Fraction(crit_failure, OUTCOMES_3D6),
        outcomes=tuple(outcomes),
    )
