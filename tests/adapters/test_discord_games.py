"""Around the World (`/atw`) and Rails & Sails (`/rails`) through the Discord layer.

Real interaction payloads go in (slash commands, autocomplete, buttons, selects) through
discord.py's own parsing (tests/discord_harness.py); what the bot sent is read back from
the recording and every move is checked against the store's action log.
"""

from __future__ import annotations

import dataclasses
import random
import re
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.games import ui_for
from bot.gameui import action_key
from bot.i18n import normalise_language
from bot.replay import verify
from bot.service import action_hash
from engine import registry
from tests.adapters.test_discord_fullgame import assert_final, fixed_seed, latest_public, payload_of
from tests.support.discord_harness import (
    ALICE,
    BOB,
    CAROL,
    CUSTOM_ID,
    DAVE,
    FakeUser,
    Harness,
    Sent,
    kind_of,
    open_table,
    refusal,
    text,
)

USERS = {u.id: u for u in (ALICE, BOB, CAROL, DAVE)}
ATW = "around-the-world"
RAILS = "rails-and-sails"
ATW_UI = ui_for(ATW)
RAILS_UI = ui_for(RAILS)
ATW_LOCALES = Path(ATW_UI.package_dir) / "locales"
RAILS_LOCALES = Path(RAILS_UI.package_dir) / "locales"
MENTION = re.compile(r"<@!?(\d+)>")
CARD_ICONS = ("🚢", "🚂")


# -- shared helpers -----------------------------------------------------------------------------


async def game_record(h: Harness) -> Any:
    games = await h.bot.store.games()  # type: ignore[attr-defined]
    return max(games, key=lambda g: g.id)


def check_new_public(h: Harness, checked: int, human_ids: set[int]) -> int:
    """`check_public` on every channel message after the first `checked`; returns the new count."""
    messages = h.channel_messages()
    for msg in messages[checked:]:
        # a secret setup choice (tickets kept while others still choose) posts a line, no new board
        secret_choice = msg.content.startswith(("🎫", "🧩")) and "Waiting for" in msg.content
        check_public(msg, human_ids, image=not secret_choice)
    return len(messages)


def humans_of(record: Any) -> dict[str, FakeUser]:
    return {s.seat: USERS[s.user_id] for s in record.seats if not s.is_bot}


def check_public(msg: Sent, human_ids: set[int], *, image: bool = True) -> None:
    """A channel message of a running or finished game: the board, no secrets, pings exactly
    the humans it names (and nobody else, no roles, no @everyone)."""
    if image:
        assert msg.files and msg.files[0].is_png, f"no board image: {msg}"
    assert "private" not in msg.content
    am = msg.allowed_mentions
    assert am is not None and am["parse"] == [] and not am.get("roles"), am
    mentioned = {int(x) for x in MENTION.findall(msg.content)}
    assert {int(u) for u in am.get("users", [])} == mentioned, (am, msg.content)
    assert mentioned <= human_ids, "pinged someone who is not a human player"


async def autocomplete(h: Harness, user: FakeUser, path: str, option: str, current: str = "",
                       **values: Any) -> list[dict[str, Any]]:
    """Send a type-4 payload and read the choices of the type-8 callback."""
    ask = h.autocomplete(user, path, option, current, **values)
    await h.run(ask)
    [cb] = h.callbacks_for(ask)
    assert cb.type == 8, cb.type
    assert len(cb.choices) <= 25
    for c in cb.choices:
        assert 1 <= len(c["name"]) <= 100 and 1 <= len(c["value"]) <= 100, c
    return cb.choices


def resolve(value: str, legal: list[dict[str, Any]], types: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """The legal action an autocomplete value stands for (an action key, or its hash when long)."""
    for a in legal:
        if types and a["type"] not in types:
            continue
        if value in (action_key(a), action_hash(a)):
            return a
    return None


async def via_menu(h: Harness, user: FakeUser, public: Sent, wanted: dict[str, Any], ui: Any,
                   rng: random.Random, by_hash: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Open "Your move" and walk the private menu (buttons, group buttons, pages, selects) to
    `wanted`; when it is not offered where it should be, a random offered option is taken."""
    goal = action_hash(wanted)
    [play] = [b for b in public.buttons if kind_of(b.custom_id) == "menu" and not payload_of(b.custom_id)]
    mark = h.mark()
    await h.run(h.click(user, public, play.custom_id))  # type: ignore[arg-type]
    [menu] = h.ephemeral_for(user, since=mark)
    assert not menu.content.startswith("⚠️"), menu.content
    for _ in range(8):
        acts = [b for b in menu.buttons if kind_of(b.custom_id) in ("act", "pact")]
        options = [(s, o["value"]) for s in menu.selects for o in s.options]
        assert {payload_of(b.custom_id) for b in acts} | {v for _, v in options} <= set(by_hash), \
            "the menu offers a move that is not legal"
        if acts:
            button = next((b for b in acts if payload_of(b.custom_id) == goal), None) or rng.choice(acts)
            await h.run(h.click(user, menu, button.custom_id))  # type: ignore[arg-type]
            return by_hash[payload_of(button.custom_id)]
        found = next(((s, v) for s, v in options if v == goal), None)
        nav = [b for b in menu.buttons if kind_of(b.custom_id) == "menu"]
        forward = next((b for b in nav if b.label == "▶"), None)
        if found is None and options and forward is not None and ui.menu_group(wanted) in payload_of(
                forward.custom_id):
            mark = h.mark()
            await h.run(h.click(user, menu, forward.custom_id))  # type: ignore[arg-type]
            [menu] = h.ephemeral_for(user, since=mark)
            continue
        if options:
            select, value = found or rng.choice(options)
            await h.run(h.choose(user, menu, select.custom_id, [value]))  # type: ignore[arg-type]
            return by_hash[value]
        groups = [b for b in nav if payload_of(b.custom_id).startswith("g=")]
        assert groups, f"a menu with nothing to press: {menu}"
        prefix = f"g={ui.menu_group(wanted)[:40]};"
        group = next((b for b in groups if payload_of(b.custom_id).startswith(prefix)), None) or rng.choice(groups)
        mark = h.mark()
        await h.run(h.click(user, menu, group.custom_id))  # type: ignore[arg-type]
        [menu] = h.ephemeral_for(user, since=mark)
    raise AssertionError("the menu never offered a move")


async def lobby_with_slash_addbot(h: Harness, host: FakeUser, others: list[FakeUser], game: str) -> None:
    """`/game new`, the others join by button, `/game addbot` adds one AI seat, Start by button."""
    await h.run(h.slash(host, "game new", game=game))
    for user in others:
        lobby = h.channel_messages()[-1]
        await h.run(h.click(user, lobby, lobby.button("Join").custom_id))  # type: ignore[arg-type]
    mark = h.mark()
    await h.run(h.slash(host, "game addbot"))
    [lobby] = h.channel_messages(since=mark)
    assert "🤖" in lobby.content
    await h.run(h.click(host, lobby, lobby.button("Start").custom_id))  # type: ignore[arg-type]


def assert_winners_announced(final: Sent, record: Any) -> None:
    rules = registry.get(record.game_id)
    result = rules.result(rules.load(record.state))
    names = {s.seat: s.name for s in record.seats}
    assert result["winners"], result
    assert text(ALICE, "result.winners", names=", ".join(names[s] for s in result["winners"])) in final.content


async def assert_log_verifies(h: Harness, record: Any) -> None:
    log = await h.bot.store.actions(record.id)
    report = verify(record, log)
    assert report.ok, report.problem
    assert report.actions == len(log) > 0


# -- around the world ---------------------------------------------------------------------------------

_ATW_PLAIN = {"take_top": "top", "use_action": "use", "skip_action": "skip", "reroll": "reroll", "keep": "keep",
              "elephant_gold": "sell", "stay": "stay", "done": "done"}
_ATW_PICK = {"exchange": ("exchange", "cards"), "event": ("event", "card"), "discard": ("discard", "card")}


def atw_command(action: dict[str, Any]) -> tuple[str, dict[str, Any], str | None]:
    """The `/atw` subcommand that makes `action`: (name, plain option values, the "pick" option)."""
    kind = action["type"]
    if kind in _ATW_PLAIN:
        return _ATW_PLAIN[kind], {}, None
    if kind == "take":
        return "take", {"slot": action["slot"] + 1}, None
    if kind == "detective":
        return "detective", {"location": action["location"]}, None
    if kind == "buy":
        return "buy", {"deck": action["deck"]}, None
    if kind == "travel":
        return ("balloon" if "balloon" in action else "travel"), {}, "cards"
    name, option = _ATW_PICK[kind]
    return name, {}, option


async def atw_slash(h: Harness, user: FakeUser, wanted: dict[str, Any], legal: list[dict[str, Any]],
                    stats: dict[str, int]) -> dict[str, Any]:
    """Make a move with `/atw …`; a "pick" option is filled from the autocomplete's choices."""
    name, values, pick = atw_command(wanted)
    if pick is None:
        await h.run(h.slash(user, f"atw {name}", **values))
        return wanted
    spec = next(p for c in ATW_UI.commands if c.name == name for p in c.params if p.name == pick)
    choices = await autocomplete(h, user, f"atw {name}", pick)
    stats["autocomplete"] += 1
    offered = [resolve(c["value"], legal, spec.types) for c in choices]
    assert None not in offered, "the autocomplete offered a value that is not a legal move"
    command = next(c for c in ATW_UI.commands if c.name == name)
    of_kind = {action_hash(a) for a in legal if a["type"] in spec.types}
    accepted = {action_hash(a) for a in legal if a["type"] in spec.types
                and command.build is not None and command.build({pick: a}, legal) is not None}
    if len(of_kind) <= 25:  # every move the command takes is offered, and only moves of its kind
        assert accepted <= {action_hash(a) for a in offered} <= of_kind  # type: ignore[arg-type]
    goal = action_hash(wanted)
    index = next((i for i, a in enumerate(offered) if action_hash(a) == goal), None)  # type: ignore[arg-type]
    if index is None:  # not among the first 25: take one that was offered
        index = next(i for i, a in enumerate(offered) if name != "balloon" or "balloon" in a)  # type: ignore[operator]
    await h.run(h.slash(user, f"atw {name}", **{pick: choices[index]["value"]}))
    return offered[index]  # type: ignore[return-value]


@pytest.mark.wholegame
async def test_around_the_world_whole_game_through_slash_commands_and_buttons(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_seed(monkeypatch, 8080)
    rng = random.Random(80)
    rules = registry.get(ATW)
    await lobby_with_slash_addbot(h, ALICE, [BOB, CAROL], ATW)
    record = await game_record(h)
    assert record.status == "running" and len(record.seats) == 4 and sum(s.is_bot for s in record.seats) == 1
    humans = humans_of(record)
    human_ids = {u.id for u in humans.values()}
    first_turn = len(h.channel_messages()) - 1
    checked = first_turn
    stats = {"slash": 0, "autocomplete": 0, "quick": 0, "menu": 0}
    steps = 0
    while True:
        record = await game_record(h)
        checked = check_new_public(h, checked, human_ids)
        if record.status == "finished":
            break
        assert record.status == "running"
        state = rules.load(record.state)
        assert "private" not in rules.view(state, None)
        [seat] = rules.to_act(state)
        user = humans[seat]  # AI seats never keep the game waiting
        legal = rules.legal_actions(state, seat)
        by_hash = {action_hash(a): a for a in legal}
        public = latest_public(h)
        quick = [b for b in public.buttons if kind_of(b.custom_id) in ("act", "pact")]
        for b in quick:  # quick buttons: legal moves, and no card of a hand on them (travel: "to Paris")
            assert payload_of(b.custom_id) in by_hash
            if by_hash[payload_of(b.custom_id)]["type"] != "take":
                assert not any(icon in (b.label or "") for icon in CARD_ICONS), b.label
        assert re.search(rf"<@{user.id}>|\*\*{re.escape(user.name)}\*\*", public.content), "who must act"
        ai = action_hash(rules.ai_action(state, seat))
        wanted = by_hash[ai] if ai in by_hash and rng.random() < 0.85 else rng.choice(legal)
        before = len(await h.bot.store.actions(record.id))
        mark = h.mark()
        if steps % 2 == 0:
            made = await atw_slash(h, user, wanted, legal, stats)
            stats["slash"] += 1
        elif action_hash(wanted) in {payload_of(b.custom_id) for b in quick} and rng.random() < 0.7:
            button = next(b for b in quick if payload_of(b.custom_id) == action_hash(wanted))
            await h.run(h.click(user, public, button.custom_id))  # type: ignore[arg-type]
            made = wanted
            stats["quick"] += 1
        else:
            made = await via_menu(h, user, public, wanted, ATW_UI, rng, by_hash)
            stats["menu"] += 1
        log = await h.bot.store.actions(record.id)
        assert len(log) > before, f"the move {made} was not made"
        assert (log[before].seat, log[before].action, log[before].actor) == (seat, made, "human")
        acks = h.ephemeral_for(user, since=mark)
        assert [a for a in acks if a.content.startswith("✅")], acks
        assert h.channel_messages(since=mark), "no public message after a move"
        steps += 1
        assert steps < 500, "the game does not end"
    final = h.channel_messages()[-1]
    assert_final(h, final)
    assert_winners_announced(final, record)
    log = await h.bot.store.actions(record.id)
    assert any(e.actor == "ai" for e in log)
    await assert_log_verifies(h, record)
    assert stats["slash"] > 20 and stats["autocomplete"] > 5 and stats["quick"] > 5 and stats["menu"] > 5, stats


async def test_around_the_world_refuses_out_of_turn_and_stale_buttons(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_seed(monkeypatch, 8181)
    rules = registry.get(ATW)
    await lobby_with_slash_addbot(h, ALICE, [BOB, CAROL], ATW)
    record = await game_record(h)
    humans = humans_of(record)
    state = rules.load(record.state)
    [seat] = rules.to_act(state)
    actor = humans[seat]
    idle = next(u for s, u in humans.items() if s != seat)
    names = {s.seat: s.name for s in record.seats}
    old_turn = latest_public(h)

    # out of turn: the autocomplete offers nothing, and the command is refused privately
    assert await autocomplete(h, idle, "atw travel", "cards") == []
    mark = h.mark()
    await h.run(h.slash(idle, "atw travel", cards="travel cards=c1 days=1 to=paris"))
    [answer] = h.ephemeral_for(idle, since=mark)
    assert answer.content == refusal(idle, "error.not_your_turn", waiting=names[seat])
    assert h.channel_messages(since=mark) == []
    assert (await game_record(h)).version == record.version

    # the player to act, but travelling is not possible while taking a card: refused, nothing changes
    assert await autocomplete(h, actor, "atw travel", "cards") == []
    mark = h.mark()
    await h.run(h.slash(actor, "atw done"))
    [answer] = h.ephemeral_for(actor, since=mark)
    assert answer.content == refusal(actor, "refuse.done", ATW_LOCALES)
    assert h.channel_messages(since=mark) == [] and (await game_record(h)).version == record.version

    # a move by the turn message's quick button, then the same button again: "moved on"
    take = next(b for b in old_turn.buttons if kind_of(b.custom_id) == "act")
    await h.run(h.click(actor, old_turn, take.custom_id))  # type: ignore[arg-type]
    moved = await game_record(h)
    assert moved.version > record.version
    mark = h.mark()
    await h.run(h.click(actor, old_turn, take.custom_id))  # type: ignore[arg-type]
    [answer] = h.ephemeral_for(actor, since=mark)
    assert answer.content == refusal(actor, "error.stale_move")
    assert h.channel_messages(since=mark) == [] and (await game_record(h)).version == moved.version
    # the answer carries a fresh "Your move" button, for the current version
    [fresh] = [b for b in answer.buttons if kind_of(b.custom_id) == "menu"]
    m = CUSTOM_ID.fullmatch(fresh.custom_id or "")
    assert m and int(m["version"]) == moved.version
    # someone who is not to act presses an old button: the same "moved on" answer, never a move
    mark = h.mark()
    await h.run(h.click(idle, old_turn, take.custom_id))  # type: ignore[arg-type]
    [answer] = h.ephemeral_for(idle, since=mark)
    assert answer.content == refusal(idle, "error.stale_move")
    assert (await game_record(h)).version == moved.version


# -- rails & sails ------------------------------------------------------------------------------------------


def tiny_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\x00")) + chunk(b"IEND", b""))


class TinyRenderer:
    """A 1×1 PNG instead of the 30 ms rails board; records the views it was given."""

    def __init__(self) -> None:
        self.boards: list[dict[str, Any]] = []
        self.png = tiny_png()

    def render_board(self, view: dict[str, Any], **kw: Any) -> bytes:
        self.boards.append(view)
        return self.png

    def render_hand(self, view: dict[str, Any], seat: str, **kw: Any) -> bytes:
        return self.png


async def rails_turn(h: Harness) -> tuple[Any, Any, list[str]]:
    rules = registry.get(RAILS)
    record = await game_record(h)
    state = rules.load(record.state)
    return record, state, rules.to_act(state)


async def test_rails_setup_claim_autocomplete_and_quick_draws(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.games.rails_and_sails import route_text
    from engine.games.rails_and_sails.mapdata import ROUTES_BY_ID

    monkeypatch.setitem(games.RUNTIME, RAILS, dataclasses.replace(games.get(RAILS), renderer=TinyRenderer()))
    fixed_seed(monkeypatch, 4711)
    rng = random.Random(4711)
    rules = registry.get(RAILS)
    await open_table(h, ALICE, [BOB], game=RAILS, ai=1)
    record, state, to_act = await rails_turn(h)
    assert state.phase == "setup_tickets"
    humans = humans_of(record)
    by_user = {u.id: s for s, u in humans.items()}
    assert set(to_act) == set(humans), "the AI keeps its tickets at once; both humans choose"

    # Alice keeps tickets through the select of her private menu
    legal = rules.legal_actions(state, by_user[ALICE.id])
    by_hash = {action_hash(a): a for a in legal}
    made = await via_menu(h, ALICE, latest_public(h), rng.choice(legal), RAILS_UI, rng, by_hash)
    assert made["type"] == "keep_tickets"
    # Bob with `/rails keep tickets:`, a value from the autocomplete
    record, state, _ = await rails_turn(h)
    legal = rules.legal_actions(state, by_user[BOB.id])
    choices = await autocomplete(h, BOB, "rails keep", "tickets")
    assert len(choices) == min(25, len(legal)) > 0
    pick = choices[-1]["value"]
    before = len(await h.bot.store.actions(record.id))
    mark = h.mark()
    await h.run(h.slash(BOB, "rails keep", tickets=pick))
    log = await h.bot.store.actions(record.id)
    assert (log[before].seat, log[before].action) == (by_user[BOB.id], resolve(pick, legal))
    assert h.channel_messages(since=mark)
    record, state, to_act = await rails_turn(h)
    assert state.phase == "setup_pieces" and set(to_act) == set(humans)

    # the piece mix with `/rails mix trains:` (an int option); an impossible move is refused
    mark = h.mark()
    await h.run(h.slash(ALICE, "rails claim", route="claim route=x cards=t:wild"))
    [answer] = h.ephemeral_for(ALICE, since=mark)
    assert answer.content.startswith("⚠️") and (await game_record(h)).version == record.version
    await h.run(h.slash(ALICE, "rails mix", trains=22))
    mark = h.mark()
    await h.run(h.slash(BOB, "rails mix", trains=14))
    channel = "\n".join(m.content for m in h.channel_messages(since=mark))
    assert "Alice starts with 22 trains and 38 ships." in channel
    assert "Bob starts with 14 trains and 46 ships." in channel
    record, state, to_act = await rails_turn(h)
    assert state.phase == "play"

    # no route yet: the harbor autocomplete has nothing for the player to act
    [seat] = to_act
    if seat in humans:
        assert await autocomplete(h, humans[seat], "rails harbor", "city") == []

    # take cards with the public quick buttons until a human to act can claim a route
    draws = 0
    for _ in range(60):
        record, state, [seat] = await rails_turn(h)
        assert seat in humans, "AI seats never keep the game waiting"
        legal = rules.legal_actions(state, seat)
        if any(a["type"] == "claim" for a in legal) and draws >= 2:
            break
        public = latest_public(h)
        quick = [b for b in public.buttons if kind_of(b.custom_id) in ("act", "pact")]
        assert quick, "no quick buttons to draw with"
        by_hash = {action_hash(a): a for a in legal}
        button = rng.choice(quick)
        chosen = by_hash[payload_of(button.custom_id)]
        assert chosen["type"] in ("draw", "tickets")
        if chosen["type"] == "tickets":
            continue
        before = len(await h.bot.store.actions(record.id))
        mark = h.mark()
        await h.run(h.click(humans[seat], public, button.custom_id))  # type: ignore[arg-type]
        log = await h.bot.store.actions(record.id)
        assert (log[before].seat, log[before].action) == (seat, chosen)
        channel = "\n".join(m.content for m in h.channel_messages(since=mark))
        assert "🃏" in channel, "the draw is told in the channel"
        draws += 1
    else:
        raise AssertionError("no claim became possible")
    user = humans[seat]
    t = RAILS_UI.translator(normalise_language(user.locale))
    claims = [a for a in legal if a["type"] == "claim"]

    # the claim autocomplete: legal claims only, labelled with the route
    choices = await autocomplete(h, user, "rails claim", "route")
    assert len(choices) == min(25, len(claims)) > 0
    for c in choices:
        action = resolve(c["value"], legal, ("claim",))
        assert action is not None, c
        assert route_text(action["route"], t) in c["name"], c
    # typing narrows the list to the labels containing the text
    labels = [c["name"] for c in choices]
    words = sorted({w for lb in labels for w in re.findall(r"[A-Za-zÀ-ÿ]{4,}", lb)},
                   key=lambda w: sum(w.casefold() in lb.casefold() for lb in labels))
    needle = words[0]
    narrowed = await autocomplete(h, user, "rails claim", "route", needle.upper())
    assert narrowed and all(needle.casefold() in c["name"].casefold() for c in narrowed)
    view = rules.view(state, seat)
    expected = [lb for lb in (RAILS_UI.action_label(a, view, t) for a in claims)
                if needle.casefold() in lb.casefold()][:25]
    assert [c["name"] for c in narrowed] == expected
    if len(claims) > 1 and any(needle.casefold() not in RAILS_UI.action_label(a, view, t).casefold()
                               for a in claims):
        assert len(narrowed) < len(claims)

    # values that are not a legal claim: refused privately, nothing changes
    draw = next(a for a in legal if a["type"] == "draw")
    for bad in ("claim route=nowhere cards=t:wild", action_key(draw), action_hash(draw)):
        mark = h.mark()
        await h.run(h.slash(user, "rails claim", route=bad))
        [answer] = h.ephemeral_for(user, since=mark)
        assert answer.content.startswith("⚠️"), answer.content
        assert h.channel_messages(since=mark) == []
        assert (await game_record(h)).version == record.version

    # a value from the autocomplete claims the route
    value = narrowed[0]["value"]
    action = resolve(value, legal, ("claim",))
    assert action is not None
    before = len(await h.bot.store.actions(record.id))
    mark = h.mark()
    await h.run(h.slash(user, "rails claim", route=value))
    log = await h.bot.store.actions(record.id)
    assert len(log) > before and (log[before].seat, log[before].action) == (seat, action)
    [ack] = h.ephemeral_for(user, since=mark)
    assert ack.content.startswith("✅")
    channel = "\n".join(m.content for m in h.channel_messages(since=mark))
    t_game = RAILS_UI.translator("en")
    assert route_text(action["route"], t_game) in channel, channel
    assert ROUTES_BY_ID[action["route"]].id in (await game_record(h)).state["claimed"]


@pytest.mark.wholegame
async def test_rails_whole_game_through_menus_and_buttons(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:

    # the real rails board costs ~30 ms a turn: a 1×1 PNG keeps this whole game fast
    tiny = TinyRenderer()
    monkeypatch.setitem(games.RUNTIME, RAILS, dataclasses.replace(games.get(RAILS), renderer=tiny))
    fixed_seed(monkeypatch, 2024)
    rng = random.Random(2024)
    rules = registry.get(RAILS)
    await open_table(h, ALICE, [BOB], game=RAILS, ai=1)
    record = await game_record(h)
    humans = humans_of(record)
    human_ids = {u.id for u in humans.values()}
    checked = len(h.channel_messages()) - 1
    stats = {"quick": 0, "menu": 0, "ai_move": 0, "harbor_autocomplete": 0}
    steps = 0
    while True:
        record = await game_record(h)
        checked = check_new_public(h, checked, human_ids)
        if record.status == "finished":
            break
        state = rules.load(record.state)
        seat = rng.choice([s for s in rules.to_act(state)])
        user = humans[seat]
        legal = rules.legal_actions(state, seat)
        by_hash = {action_hash(a): a for a in legal}
        ai = action_hash(rules.ai_action(state, seat))
        wanted = by_hash.get(ai) or rng.choice(legal)
        if not stats["harbor_autocomplete"] and any(a["type"] == "harbor" for a in legal):
            choices = await autocomplete(h, user, "rails harbor", "city")
            harbors = [a for a in legal if a["type"] == "harbor"]
            assert len(choices) == min(25, len(harbors)) > 0
            assert all(resolve(c["value"], legal, ("harbor",)) for c in choices)
            stats["harbor_autocomplete"] += 1
        public = latest_public(h)
        quick = {payload_of(b.custom_id): b for b in public.buttons if kind_of(b.custom_id) == "act"}
        before = len(await h.bot.store.actions(record.id))
        mark = h.mark()
        if action_hash(wanted) in quick:
            await h.run(h.click(user, public, quick[action_hash(wanted)].custom_id))  # type: ignore[arg-type]
            made = wanted
            stats["quick"] += 1
        else:
            made = await via_menu(h, user, public, wanted, RAILS_UI, rng, by_hash)
            stats["menu"] += 1
        stats["ai_move"] += action_hash(made) == ai
        log = await h.bot.store.actions(record.id)
        assert len(log) > before and (log[before].seat, log[before].action) == (seat, made)
        assert any(a.content.startswith("✅") for a in h.ephemeral_for(user, since=mark))
        steps += 1
        assert steps < 600, "the game does not end"
    final = h.channel_messages()[-1]
    assert_final(h, final)
    assert_winners_announced(final, record)
    rules_result = rules.result(rules.load(record.state))
    names = {s.seat: s.name for s in record.seats}
    game_over = RAILS_UI.translator("en").plural("event.game_over", len(rules_result["winners"]),
                                                 winners=", ".join(names[s] for s in rules_result["winners"]))
    assert game_over in final.content
    for entry in rules_result["ranking"]:
        assert f"{names[entry['seat']]} — {entry['score']}" in final.content
    await assert_log_verifies(h, record)
    assert all("private" not in view for view in tiny.boards)
    assert h.limit_violations == []
    assert stats["quick"] > 10 and stats["menu"] > 10 and stats["ai_move"] > steps // 2, stats


async def test_around_the_world_balloon_autocomplete_offers_only_balloon_travels(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_seed(monkeypatch, 8080)
    rng = random.Random(80)
    rules = registry.get(ATW)
    await lobby_with_slash_addbot(h, ALICE, [BOB, CAROL], ATW)
    for _ in range(200):  # AI-chosen moves through the menus until someone may travel by balloon
        record = await game_record(h)
        assert record.status == "running"
        state = rules.load(record.state)
        [seat] = rules.to_act(state)
        user = humans_of(record)[seat]
        legal = rules.legal_actions(state, seat)
        travels = [a for a in legal if a["type"] == "travel"]
        if any("balloon" in a for a in travels) and any("balloon" not in a for a in travels):
            break
        by_hash = {action_hash(a): a for a in legal}
        await via_menu(h, user, latest_public(h), rules.ai_action(state, seat), ATW_UI, rng, by_hash)
    else:
        raise AssertionError("no balloon travel came up")
    choices = await autocomplete(h, user, "atw balloon", "cards")
    assert choices
    # whatever the autocomplete offers, the command accepts
    for c in choices:
        assert "balloon" in resolve(c["value"], legal, ("travel",)), c  # type: ignore[operator]
    plain = next(a for a in travels if "balloon" not in a)
    mark = h.mark()
    await h.run(h.slash(user, "atw balloon", cards=action_key(plain)))
    [answer] = h.ephemeral_for(user, since=mark)
    assert answer.content == refusal(user, "refuse.balloon", ATW_LOCALES)


# -- 80 days -------------------------------------------------------------------------------------------------
DAYS = "eighty-days"


@pytest.mark.parametrize(("options", "ai", "expected"), [
    ("side=B assistants=true", 1, {"side": "B", "assistants": True, "colors_festival": False}),
    ("side=A", 2, {"side": "A", "assistants": False, "colors_festival": False}),
])
@pytest.mark.wholegame
async def test_days_whole_game_through_menus_buttons_and_commands(h: Harness, monkeypatch: pytest.MonkeyPatch,
                                                                  options: str, ai: int,
                                                                  expected: dict[str, Any]) -> None:
    """Two humans and AI seats play 80 Days to the end (3 players on side B with assistants,
    4 on side A without): public quick buttons, the private menus and `/days` subcommands with
    autocomplete values; the secret drafts post a line, never a board; the boards are drawn
    from public views only."""
    days_ui = ui_for(DAYS)
    tiny = TinyRenderer()
    monkeypatch.setitem(games.RUNTIME, DAYS, dataclasses.replace(games.get(DAYS), renderer=tiny))
    fixed_seed(monkeypatch, 8080)
    rng = random.Random(8080)
    rules = registry.get(DAYS)
    await open_table(h, ALICE, [BOB], game=DAYS, ai=ai, options=options)
    record = await game_record(h)
    assert record.options == expected
    humans = humans_of(record)
    human_ids = {u.id for u in humans.values()}
    checked = len(h.channel_messages()) - 1
    stats = {"quick": 0, "menu": 0, "command": 0}
    commands = {"travel": ("travel", "line"), "buy": ("buy", "item"), "give_back": ("giveback", "item"),
                "keep_adventure": ("keep", "card")}
    steps = 0
    while True:
        record = await game_record(h)
        messages = h.channel_messages()
        for msg in messages[checked:]:
            secret = msg.content.startswith(("📜", "🤝")) and "🗺" not in msg.content and not msg.files
            check_public(msg, human_ids, image=not secret)
        checked = len(messages)
        if record.status == "finished":
            break
        state = rules.load(record.state)
        seat = rng.choice(rules.to_act(state))
        user = humans[seat]
        legal = rules.legal_actions(state, seat)
        by_hash = {action_hash(a): a for a in legal}
        wanted = rules.ai_action(state, seat) if rng.random() < 0.85 else rng.choice(legal)
        public = latest_public(h)
        quick = {payload_of(b.custom_id): b for b in public.buttons if kind_of(b.custom_id) == "act"}
        before = len(await h.bot.store.actions(record.id))
        mark = h.mark()
        if action_hash(wanted) in quick:
            await h.run(h.click(user, public, quick[action_hash(wanted)].custom_id))  # type: ignore[arg-type]
            made = wanted
            stats["quick"] += 1
        elif wanted["type"] in commands and rng.random() < 0.5:
            name, param = commands[wanted["type"]]
            choices = await autocomplete(h, user, f"days {name}", param)
            value = next(c["value"] for c in choices if resolve(c["value"], legal) == wanted)
            await h.run(h.slash(user, f"days {name}", **{param: value}))
            made = wanted
            stats["command"] += 1
        else:
            made = await via_menu(h, user, public, wanted, days_ui, rng, by_hash)
            stats["menu"] += 1
        log = await h.bot.store.actions(record.id)
        assert len(log) > before and (log[before].seat, log[before].action) == (seat, made)
        assert any(a.content.startswith("✅") for a in h.ephemeral_for(user, since=mark))
        steps += 1
        assert steps < 900, "the game does not end"
    final = h.channel_messages()[-1]
    assert_final(h, final)
    assert_winners_announced(final, record)
    await assert_log_verifies(h, record)
    assert all("private" not in view for view in tiny.boards)
    assert h.limit_violations == []
    assert stats["quick"] > 5 and stats["menu"] > 10 and stats["command"] > 3, stats


async def test_days_refuses_a_move_that_is_not_legal_privately(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """`/days end` before the action and a juggle on a made-up stack: a private, translated
    refusal and no change."""

    monkeypatch.setitem(games.RUNTIME, DAYS, dataclasses.replace(games.get(DAYS), renderer=TinyRenderer()))
    fixed_seed(monkeypatch, 99)
    rules = registry.get(DAYS)
    await open_table(h, ALICE, [BOB], game=DAYS, ai=0)
    for _ in range(4):  # the adventure drafts
        record = await game_record(h)
        state = rules.load(record.state)
        if state.phase != "setup":
            break
        seat = rules.to_act(state)[0]
        await via_menu(h, humans_of(record)[seat], latest_public(h), rules.legal_actions(state, seat)[0],
                       ui_for(DAYS), random.Random(1), {action_hash(a): a for a in rules.legal_actions(state, seat)})
    record = await game_record(h)
    state = rules.load(record.state)
    [seat] = rules.to_act(state)
    user = humans_of(record)[seat]
    days_locales = Path(ui_for(DAYS).package_dir) / "locales"
    for command, options in (("days end", {}), ("days juggle", {"stack": "juggle stack=7"})):
        mark = h.mark()
        await h.run(h.slash(user, command, **options))
        [answer] = h.ephemeral_for(user, since=mark)
        assert answer.content.startswith("⚠️"), answer.content
        assert h.channel_messages(since=mark) == []
        assert (await game_record(h)).version == record.version
    mark = h.mark()
    await h.run(h.slash(user, "days end"))
    [answer] = h.ephemeral_for(user, since=mark)
    assert answer.content == refusal(user, "refuse.end", days_locales)
