"""Secret rolls: the sheet on the shared screen never shows a secret roll as its "Last roll"."""

from gamekernel import Session
from gamekernel.gurps.render import success_text
from gamekernel.gurps.widgets.sheet import SheetWidget
from gamekernel.i18n import t


def test_sheet_last_roll_hides_a_secret_check_and_shows_a_public_one():
    s = Session(seed=42)
    s.gurps.char_new("Aiko", iq=12)
    widget = SheetWidget(s, "Aiko")
    public = s.gurps.check("Per")
    assert widget.last == success_text(public)
    secret = s.gurps.check("Per", secret=True)
    assert widget.last == t("core.secret_result", kind="check")
    assert success_text(secret) not in widget.last and str(secret.total) not in widget.last
    again = s.gurps.check("IQ")
    assert widget.last == success_text(again)
