"""GURPS Lite (4th edition) rules: pure functions and small frozen values, no IPython.

Modules, one concern each: checks (success rolls, specs), odds (exact probabilities), contests,
reactions, influence, fright, selfcontrol, damage (ST table, DR, wounding), characters, traits,
skills, gcs (GCS .gcs import). Combat, injury, fatigue, hazards and magic live in their own modules.
"""

from gamekernel.gurps.rules.character_files import load_character, save_character
from gamekernel.gurps.rules.characters import Character, roll_check
from gamekernel.gurps.rules.checks import Modifier, SuccessRoll, parse_check_spec, success_roll

__all__ = [
    "Character",
    "Modifier",
    "SuccessRoll",
    "load_character",
    "parse_check_spec",
    "roll_check",
    "save_character",
    "success_roll",
]
