"""The MtG half wired to the magics: `--opt value` and `--opt=value` alike, `%check ...
--boost-if-needed`, `%mtg config key=value` as a logged event, `%library stack` with Japanese 、."""

import pytest

from gamekernel.magic_base import current_session

DECK = "Deck\n4 Elvish Mystic\n4 Runeclaw Bear\n\n12 Forest\n4 Ornithopter\n"


@pytest.fixture
def deck(tmp_path):
    path = tmp_path / "mira.txt"
    path.write_text(DECK, encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["arena", "mtgo", "moxfield", "archidekt", "mtggoldfish", "text"])
@pytest.mark.parametrize("form", ["--format {fmt} {path}", "--format={fmt} {path}", "{path} --format {fmt}"])
def test_library_load_format_in_both_option_forms(ip, deck, fmt, form):
    loaded = ip.run_line_magic("library", "load Mira " + form.format(fmt=fmt, path=deck))
    from gamekernel.mtg.render import format_name

    assert f"({format_name(fmt)}, as asked with --format)" in str(loaded) and "24 cards" in str(loaded), str(loaded)


@pytest.mark.parametrize("form", ["data {file} --cache {dir}", "data {file} --cache={dir}",
                                  "data --cache {dir} {file}"])
def test_library_data_cache_in_both_option_forms(ip, tmp_path, monkeypatch, form):
    seen = {}

    def fake(path, *, cache=None, progress=None):
        seen.update(path=path, cache=cache)
        return {}

    monkeypatch.setattr(current_session().mtg, "card_data", fake)
    ip.run_line_magic("library", form.format(file="AtomicCards.json", dir=tmp_path / "cache"))
    assert seen == {"path": "AtomicCards.json", "cache": str(tmp_path / "cache")}


def test_library_stack_accepts_the_japanese_separator(ip, deck):
    ip.run_line_magic("library", f"load Mira {deck}")
    ip.run_line_magic("library", "stack Ornithopter、Runeclaw Bear、Elvish Mystic @Mira")
    session = current_session()
    assert session.log[-1].data["stacked"] == ["Ornithopter", "Runeclaw Bear", "Elvish Mystic"]
    table = session.mtg.state.table
    top = [table.card(u).def_id for u in table.order("Mira:library")[:3]]
    assert top == ["Ornithopter", "Runeclaw Bear", "Elvish Mystic"]


def test_check_boost_if_needed_boosts_only_when_it_can_help(ip, deck):
    ip.run_line_magic("library", f"load Mira {deck}")
    ip.run_line_magic("library", "stack Forest, Forest @Mira")
    result = ip.run_line_magic("check", "green 9 --boost-if-needed")
    kinds = [e.kind for e in current_session().log[-2:]]
    assert kinds == ["mtg.check", "mtg.boost"], kinds
    assert "boost" in str(result)
    ip.run_line_magic("scene", "")
    ip.run_line_magic("library", "stack Runeclaw Bear, Runeclaw Bear @Mira")
    ip.run_line_magic("check", "green 1 --boost-if-needed")  # a success: no boost
    assert current_session().log[-1].kind == "mtg.check"


def test_boost_if_needed_is_refused_on_a_gurps_check(ip):
    assert "unknown option --boost-if-needed" in repr(ip.run_line_magic("check", "12 --boost-if-needed"))


def test_mtg_config_magic_is_a_logged_event_with_string_values(ip, deck):
    ip.run_line_magic("library", f"load Mira {deck}")
    shown = ip.run_line_magic("mtg", "config boost_per_character=false boost_cards=4")
    session = current_session()
    assert session.log[-1].kind == "mtg.config"
    assert session.mtg.options.boost_per_character is False and session.mtg.options.boost_cards == 4
    assert "boost_cards=4" in str(shown)
    assert "not allowed" in repr(ip.run_line_magic("mtg", "config boost_cards=many"))
    assert "unknown MtG option" in repr(ip.run_line_magic("mtg", "config colour=blue"))
    assert "is not option=value" in repr(ip.run_line_magic("mtg", "config boost_cards"))
    session.undo()
    assert session.mtg.options.boost_cards == 6


def test_mtg_options_are_shown_in_the_library_widget_header(ip, deck):
    from gamekernel.mtg.widgets.library import LibraryWidget

    ip.run_line_magic("library", f"load Mira {deck}")
    widget = LibraryWidget(current_session(), "Mira")
    assert widget.labels["options"] == widget.labels["options_detail"] == ""  # MTG-CHK defaults: no line
    ip.run_line_magic("mtg", "config boost_cards=5")
    assert widget.labels["options"] == "house rules: 1 changed"  # one line, the detail on demand
    assert widget.labels["options_detail"] == "cards a boost reveals (boost_cards=5)"
    widget.close()
