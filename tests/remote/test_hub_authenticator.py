"""The table hub's authenticator on its own (the hub's database in memory): nobody becomes the GM with
a player's credential, and failed sign-ins lock every account out, the GM's included."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("nativeauthenticator")

GM_PASSWORD = "the GM's own 42"


def _authenticator(db=None, **config):
    from jupyterhub import orm

    from gamekernel.remote.hub.authenticator import TableAuthenticator

    db = db or orm.new_session_factory("sqlite://")()
    settings = {"gm_password": GM_PASSWORD, "allowed_failed_logins": 5, "seconds_before_next_try": 600,
                "minimum_password_length": 8, **config}
    return TableAuthenticator(_deprecated_db_session=db, **settings), db


def _sign_in(auth, name, password):
    return asyncio.run(auth.get_authenticated_user(None, {"username": name, "password": password}))


@pytest.mark.parametrize("spelling", ["gm", "GM", " gm", "gm ", "Gm", "ｇｍ", "ＧＭ"])
def test_no_sign_up_takes_any_spelling_of_the_gms_name(spelling):
    auth, _ = _authenticator()
    assert auth.create_user(spelling, "a player's password 7") is None
    assert _sign_in(auth, "gm", "a player's password 7") is None
    assert _sign_in(auth, spelling, "a player's password 7") is None


def test_a_sign_up_as_the_gm_made_before_this_hub_is_taken_back_at_start():
    """An older database where someone signed up as `gm` (and was even approved): the GM's password
    from the environment replaces theirs when the hub starts."""
    import bcrypt
    from nativeauthenticator.orm import UserInfo

    auth, db = _authenticator()
    info = UserInfo.find(db, "gm")
    info.password = bcrypt.hashpw(b"squatter's password", bcrypt.gensalt())
    db.commit()
    assert _sign_in(auth, "gm", "squatter's password")["name"] == "gm"  # the planted record, before a restart
    restarted, _ = _authenticator(db)
    assert _sign_in(restarted, "gm", "squatter's password") is None
    assert _sign_in(restarted, "GM", GM_PASSWORD)["name"] == "gm"


def test_the_gm_signs_in_with_the_gms_password_only():
    auth, _ = _authenticator()
    signed_in = _sign_in(auth, "gm", GM_PASSWORD)
    assert signed_in["name"] == "gm" and not signed_in["admin"]  # the GM's powers come from the hub's roles
    assert _sign_in(auth, "gm", "wrong") is None


def test_a_player_signs_up_waits_for_the_gms_approval_then_signs_in_as_themself_only():
    from nativeauthenticator.orm import UserInfo

    auth, db = _authenticator()
    assert auth.create_user("Mallory", "mallory's password 9") is not None
    assert _sign_in(auth, "mallory", "mallory's password 9") is None  # not approved yet
    UserInfo.change_authorization(db, "mallory")  # what the GM's click at /hub/authorize does
    assert _sign_in(auth, "MALLORY", "mallory's password 9")["name"] == "mallory"
    assert _sign_in(auth, "gm", "mallory's password 9") is None
    assert auth.create_user("mallory", "another password 1") is None  # the name is taken


def test_sign_up_refuses_short_common_and_spaced_names_and_passwords():
    auth, _ = _authenticator(check_common_password=True)
    assert auth.create_user("bob", "short") is None
    assert auth.create_user("bob", "password123") is None  # in the common-passwords list
    assert auth.create_user("b ob", "bob's password 1") is None
    assert auth.create_user("b/ob", "bob's password 1") is None
    assert auth.create_user("bob", "bob's password 1") is not None


@pytest.mark.parametrize("who", ["gm", "mallory"])
def test_failed_sign_ins_lock_every_account_the_right_password_included(who, monkeypatch):
    from nativeauthenticator.orm import UserInfo

    from gamekernel.remote.hub import authenticator as module

    clock = [1000.0]
    monkeypatch.setattr(module.time, "monotonic", lambda: clock[0])
    auth, db = _authenticator()
    password = GM_PASSWORD
    if who != "gm":
        password = "mallory's password 9"
        auth.create_user(who, password)
        UserInfo.change_authorization(db, who)
    outcomes = [_sign_in(auth, who, f"guess {n}") for n in range(50)]
    assert outcomes == [None] * 50
    assert auth.locked_for(who) == 600
    assert _sign_in(auth, who, password) is None  # the right one, during the lock-out
    assert _sign_in(auth, who.upper(), password) is None  # in any spelling
    clock[0] += 599
    assert _sign_in(auth, who, password) is None
    clock[0] += 2
    assert auth.locked_for(who) == 0
    assert _sign_in(auth, who, password)["name"] == who  # after the lock-out
    assert auth.locked_for(who) == 0 and who not in auth.failures


def test_four_failures_then_the_right_password_still_work_and_reset_the_count():
    auth, _ = _authenticator()
    for n in range(4):
        assert _sign_in(auth, "gm", f"guess {n}") is None
    assert auth.locked_for("gm") == 0
    assert _sign_in(auth, "gm", GM_PASSWORD)["name"] == "gm"
    assert "gm" not in auth.failures


def test_the_hub_refuses_to_start_without_the_gms_password_or_with_a_bad_gm_name():
    with pytest.raises(ValueError, match="password is empty"):
        _authenticator(gm_password="")
    with pytest.raises(ValueError, match="not a valid user name"):
        _authenticator(gm="g/m")


def test_with_a_list_of_players_an_approved_stranger_still_cannot_sign_in():
    """GAMEKERNEL_TABLE_PLAYERS=alice: the hub's allowed_users, on top of the GM's approval."""
    from nativeauthenticator.orm import UserInfo

    auth, db = _authenticator(allow_all=False, allowed_users={"gm", "alice"})
    for name in ("alice", "trudy"):
        assert not auth.create_user(name, f"{name}'s password 3").is_authorized  # listed or not: the GM approves
        assert _sign_in(auth, name, f"{name}'s password 3") is None
        UserInfo.change_authorization(db, name)
    assert _sign_in(auth, "Alice", "alice's password 3")["name"] == "alice"
    assert _sign_in(auth, "trudy", "trudy's password 3") is None
    assert _sign_in(auth, "gm", GM_PASSWORD)["name"] == "gm"
