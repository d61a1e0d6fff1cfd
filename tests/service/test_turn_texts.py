"""Issue 23, "players understand every turn at a glance": what players read, through the
service, in en/de/fr — the private news of a draw, why a public button cannot be used, typed
values that match several moves, help, the log's actors, results, stats, settings, units and
mixed languages."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot.replies import Reply, User, Where
from bot.service import TableService
from bot.settings import Settings
from bot.store import Store
from bot.table.ids import action_hash, custom_id

HERE = Where(channel_id=100, guild_id=10, guild_locale="en")
PEOPLE = [User(1, "Alice", "en"), User(2, "Bob", "de"), User(3, "Carol", "fr")]

Chooser = Callable[[Any, str, list[dict[str, Any]]], dict[str, Any]]


async def open_table(service: TableService, game: str, people: list[User] = PEOPLE, *, seed: int = 5,
                     options: str | None = None, language: str | None = None) -> None:
    await service.new_game(people[0], HERE, game, seed=seed, options=options, language=language)
    for user in people[1:]:
        await service.join(user, HERE)
    await service.start(people[0], HERE)


async def press(service: TableService, user: User, action: dict[str, Any]) -> list[Reply]:
    """Press `action` in the user's own move menu (as the "Your move" menu's button would)."""
    store = service.store
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    seat = record.seat_of_user(user.id)
    assert seat is not None and seat.seat is not None
    own = await store.seat_action_count(record.id, seat.seat)
    return await service.component(user, HERE, custom_id(record.id, own, "pact", action_hash(action)))


async def play(service: TableService, people: list[User], steps: int,
               choose: Chooser | None = None) -> list[tuple[User, dict[str, Any], list[Reply]]]:
    """Let the humans move `steps` times (the AI's choice unless `choose` picks); each move
    with the replies to it."""
    store: Store = service.store
    done: list[tuple[User, dict[str, Any], list[Reply]]] = []
    for _ in range(steps):
        record = await store.active_game(HERE.channel_id)
        if record is None:
            break
        loaded = service.load(record)
        seat = loaded.rules.to_act(loaded.state)[0]
        user = next(p for p in people if (s := record.seat_of_user(p.id)) is not None and s.seat == seat)
        legal = loaded.rules.legal_actions(loaded.state, seat)
        action = choose(loaded, seat, legal) if choose else loaded.rules.ai_action(loaded.state, seat)
        done.append((user, action, await press(service, user, action)))
    return done


@dataclasses.dataclass(frozen=True)
class Turn:
    """Who acts now and what they may do."""

    record: Any
    loaded: Any
    seat: str
    user: User
    legal: list[dict[str, Any]]


async def turns(service: TableService, steps: int) -> AsyncIterator[Turn]:
    """The game's next `steps` turns, one at a time: the loop's body looks around (presses a
    button, reads a refusal), then the turn's player makes the AI's move."""
    for _ in range(steps):
        record = await service.store.active_game(HERE.channel_id)
        if record is None:
            return
        loaded = service.load(record)
        seat = loaded.rules.to_act(loaded.state)[0]
        user = next(p for p in PEOPLE if (s := record.seat_of_user(p.id)) is not None and s.seat == seat)
        yield Turn(record, loaded, seat, user, loaded.rules.legal_actions(loaded.state, seat))
        await press(service, user, loaded.rules.ai_action(loaded.state, seat))


def public_ids(service: TableService, loaded: Any) -> list[str]:
    """The custom ids of the turn message's buttons, as the channel sees them now."""
    return [b.custom_id for row in service.parts.messages.turn_rows(loaded, service.t("en")) for b in row]


def ack_of(user: User, replies: list[Reply]) -> Reply:
    return next(r for r in replies if r.to == "ephemeral" and r.user_id == user.id)


# -- 1. the private ✅ after a draw names what was drawn -------------------------------------------
async def test_atw_a_drawn_event_card_is_named_in_the_movers_confirmation(service: TableService) -> None:
    await open_table(service, "around-the-world")
    rng = random.Random(1)

    def drawing(loaded: Any, seat: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        for wanted in ({"type": "buy", "deck": "event"}, {"type": "use_action", "action": "event"}):
            if wanted in legal:
                return wanted
        take = [a for a in legal if a["type"] == "take" and a["slot"] == 2]
        return take[0] if take else (loaded.rules.ai_action(loaded.state, seat) if rng.random() < .9
                                     else rng.choice(legal))

    moves = await play(service, PEOPLE, 60, drawing)
    drew = {"en": "You drew: ", "de": "Du hast gezogen: ", "fr": "Tu as pioché : "}
    seen = set()
    for user, action, replies in moves:
        ack = ack_of(user, replies)
        if action in ({"type": "use_action", "action": "event"}, {"type": "buy", "deck": "event"}) \
                and "event_deck_empty" not in repr(replies):
            assert drew[user.locale] in ack.text, ack.text
            seen.add(user.locale)
        channel = "\n".join(r.text for r in replies if r.to == "channel")
        assert not any(d in channel for d in drew.values())
    assert len(seen) >= 2


async def test_rails_draws_name_the_card_and_the_tickets_offered(service: TableService) -> None:
    await open_table(service, "rails-and-sails", PEOPLE[:2])
    first = await play(service, PEOPLE[:2], 4)  # the setup: tickets kept, pieces chosen
    assert all(ack_of(u, r).outcome == "ok" for u, _, r in first)

    asked: set[str] = set()

    def drawing(loaded: Any, seat: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        if {"type": "tickets"} in legal and seat not in asked:
            asked.add(seat)
            return {"type": "tickets"}
        wanted = {"type": "draw", "source": "train_deck"}
        return wanted if wanted in legal else loaded.rules.ai_action(loaded.state, seat)

    moves = await play(service, PEOPLE[:2], 10, drawing)
    texts = [(u, a, ack_of(u, r).text) for u, a, r in moves]
    tickets = [(u, text) for u, a, text in texts if a == {"type": "tickets"}]
    assert tickets
    user, text = tickets[0]
    lines = text.splitlines()
    head = {"en": "Your 4 tickets to choose from:", "de": "Deine 4 Zielkarten zur Auswahl:"}[user.locale]
    assert head in lines
    offered = lines[lines.index(head) + 1:]
    assert [line[:3] for line in offered] == ["1) ", "2) ", "3) ", "4) "]
    assert all("–" in line and "(" in line for line in offered), offered  # cities and points
    blind = [(u, text) for u, a, text in texts if a == {"type": "draw", "source": "train_deck"}]
    assert blind and all(("You drew: " if u.locale == "en" else "Du hast gezogen: ") in text for u, text in blind)


# -- 2. a public button the presser cannot use says why, to them only; Travel… lists balloons --------
def menu_labels(reply: Reply) -> list[str]:
    labels: list[str] = []
    for row in reply.rows:
        for comp in row:
            labels += [o.label for o in getattr(comp, "options", ())] or [getattr(comp, "label", "")]
    return labels


async def test_atw_travel_button_says_what_the_leg_needs_and_lists_balloon_journeys(service: TableService) -> None:
    await open_table(service, "around-the-world", PEOPLE[:2], seed=11)
    refused: dict[str, str] = {}
    balloons = 0
    async for turn in turns(service, 80):
        record, loaded, seat, user, legal = turn.record, turn.loaded, turn.seat, turn.user, turn.legal
        travel_button = custom_id(record.id, record.version, "menu", "g=travel;p=0")
        if loaded.state.phase == "travel" and travel_button in public_ids(service, loaded):
            replies = await service.component(user, HERE, travel_button)
            journeys = [a for a in legal if a["type"] == "travel" and a["cards"]]
            if not journeys:
                assert replies[0].outcome == "refused" and replies[0].user_id == user.id
                refused.setdefault(user.locale, replies[0].text)
            else:
                view = loaded.rules.view(loaded.state, seat)
                t = loaded.ui.translator(user.locale)
                shown = menu_labels(replies[0])
                assert all(loaded.ui.action_label(a, view, t) in shown for a in journeys), shown
                balloons += sum("balloon" in a for a in journeys)
    assert refused and balloons
    for lang, text in refused.items():
        need = {"en": "The next leg, to ", "de": "Die nächste Etappe nach "}[lang]
        assert need in text and ("🚢" in text or "🚂" in text), text


async def test_a_public_quick_move_the_presser_cannot_make_is_refused_with_the_games_reason(
        service: TableService) -> None:
    """Eighty-days' public Black market button: whoever cannot pay hears why, in their language."""
    await open_table(service, "eighty-days", PEOPLE[:2], seed=3)
    store = service.store
    reasons: list[Reply] = []
    async for turn in turns(service, 60):
        record, loaded, user, legal = turn.record, turn.loaded, turn.user, turn.legal
        button = custom_id(record.id, record.version, "act", action_hash({"type": "black_market"}))
        if button in public_ids(service, loaded) and {"type": "black_market"} not in legal:
            replies = await service.component(user, HERE, button)
            assert len(replies) == 1 and replies[0].user_id == user.id and replies[0].to == "ephemeral"
            reasons.append(replies[0])
            assert (await store.active_game(HERE.channel_id)).version == record.version  # nothing changed
    assert reasons
    for reply in reasons:
        assert reply.outcome == "refused" and reply.refusal and reply.refusal.startswith("illegal."), reply


async def test_days_buy_and_adventure_buttons_say_what_is_missing(service: TableService) -> None:
    """Eighty-days' public "Buy…" and "Adventure…": whoever has nothing to do there hears what
    it costs or needs against what they have, privately, in their language."""
    await open_table(service, "eighty-days", PEOPLE[:2], seed=3)
    store = service.store
    said: dict[tuple[str, str], str] = {}
    async for turn in turns(service, 150):
        record, loaded, user, legal = turn.record, turn.loaded, turn.user, turn.legal
        for group in ("buy", "adventure"):
            button = custom_id(record.id, record.version, "menu", f"g={group};p=0")
            if button in public_ids(service, loaded) and not any(loaded.ui.menu_group(a) == group for a in legal):
                replies = await service.component(user, HERE, button)
                assert len(replies) == 1 and replies[0].user_id == user.id and replies[0].to == "ephemeral"
                assert replies[0].outcome == "refused"
                assert (await store.active_game(HERE.channel_id)).version == record.version
                said.setdefault((group, user.locale), replies[0].text)
    assert {g for g, _ in said} == {"buy", "adventure"}, said
    for (group, lang), text in said.items():
        words = {("buy", "en"): ("here", "you have"), ("buy", "de"): ("hier", "du hast"),
                 ("adventure", "en"): ("adventure",), ("adventure", "de"): ("Abenteuer",)}[(group, lang)]
        assert all(w.lower() in text.lower() for w in words), text


# -- 3. a typed value matching several moves lists them, numbered, whole; tickets are named ----------
async def test_a_typed_value_matching_several_moves_lists_them_numbered_and_whole(service: TableService) -> None:
    await open_table(service, "rails-and-sails", PEOPLE[:2])
    record = await service.store.active_game(HERE.channel_id)
    assert record is not None
    loaded = service.load(record)
    for user in PEOPLE[:2]:
        seat = record.seat_of_user(user.id).seat  # type: ignore[union-attr]
        view = loaded.rules.view(loaded.state, seat)
        t = loaded.ui.translator(user.locale)
        labels = [loaded.ui.action_label(a, view, t) for a in loaded.rules.legal_actions(loaded.state, seat)]
        assert not any(re.search(r"\d, \d", label) for label in labels), labels  # names, not "1, 2, 4"
        city = next(word for word in labels[1].split() if word[0].isupper() and word not in ("Keep", "Alle"))
        needle = city.split("–")[0]
        matching = [label for label in labels if needle.casefold() in label.casefold()]
        assert len(matching) > 1
        replies = await service.command(user, HERE, "rails", "keep", {"tickets": needle})
        text = replies[0].text
        assert replies[0].outcome == "refused" and replies[0].refusal == "error.ambiguous_pick"
        head = {"en": f"`{needle}` matches {len(matching)} of your moves:",
                "de": f"`{needle}` passt zu {len(matching)} deiner Züge:"}[user.locale]
        assert text.startswith("⚠️ " + head), text
        lines = text.splitlines()[1:]
        shown = min(len(matching), 15)
        # each numbered by its place among the moves, so that number typed back names it
        numbers = [labels.index(label) + 1 for label in matching[:shown]]
        assert lines[:shown] == [f"{n}) {label}" for n, label in zip(numbers, matching[:shown], strict=True)]
        assert "…" not in "".join(lines[:shown])
        assert (await service.store.active_game(HERE.channel_id)).version == record.version  # nothing changed
    # the number of a listed move, typed back, makes that move
    user = PEOPLE[0]
    seat = record.seat_of_user(user.id).seat  # type: ignore[union-attr]
    legal = loaded.rules.legal_actions(loaded.state, seat)
    pick = len(legal)  # the last one listed, as "#7" or "7"
    replies = await service.command(user, HERE, "rails", "keep", {"tickets": f"#{pick}"})
    assert replies[0].outcome == "ok", replies[0].text
    after = service.load(await service.store.active_game(HERE.channel_id))
    expected = loaded.rules.load(loaded.rules.dump(loaded.state))
    loaded.rules.apply(expected, seat, legal[pick - 1])
    assert loaded.rules.view(after.state, seat) == loaded.rules.view(expected, seat)


# -- 4. /game help lists the commands, one line each; an unknown command names the closest -------------
async def test_help_lists_every_command_with_one_line_in_the_users_language(service: TableService) -> None:
    from bot.commands import GAME_COMMANDS

    await open_table(service, "detour", PEOPLE[:2])
    for user, game, line in ((PEOPLE[0], "/game", "`/game status` — "), (PEOPLE[1], "/spiel", "`/spiel stand` — "),
                             (PEOPLE[2], "/partie", "`/partie état` — ")):
        replies = await service.help_(user, HERE)
        assert len(replies) == 1 and replies[0].to == "ephemeral" and replies[0].user_id == user.id
        table, moves = replies[0].embeds
        lines = table.description.splitlines()
        assert len(lines) == sum(c.discord for c in GAME_COMMANDS) and all(x.startswith(f"`{game} ") for x in lines)
        assert any(x.startswith(line) for x in lines), lines
        assert moves.description.splitlines()[0].startswith("`/detour choose` — ")
    assert (await service.unknown_command(PEOPLE[0], HERE, ""))[0].embeds  # `/game` alone: help


async def test_an_unknown_command_names_the_closest_ones(service: TableService) -> None:
    close = await service.unknown_command(PEOPLE[0], HERE, "stauts")
    assert close[0].outcome == "refused"
    assert close[0].text.startswith("⚠️ There is no `/game stauts`. Did you mean `/game stats`, `/game status`")
    assert "Meintest du `/atw take`" in (await service.unknown_command(PEOPLE[1], HERE, "tak", "atw"))[0].text
    german = (await service.unknown_command(PEOPLE[1], HERE, "hilf"))[0].text
    assert german.startswith("⚠️ `/spiel hilf` gibt es nicht. Meintest du `/spiel hilfe`"), german
    assert "Tu voulais dire `/atw` ?" in (await service.unknown_command(PEOPLE[2], HERE, "awt", None))[0].text
    nothing = await service.unknown_command(PEOPLE[0], HERE, "frobnicate")
    assert nothing[0].text == "⚠️ There is no `/game frobnicate`. `/game help` lists the commands."


# -- 5. the log says who really acted -------------------------------------------------------------------
async def test_the_log_marks_ai_moves_and_stand_ins_apart_and_never_puts_a_humans_step_on_the_ai(
        service: TableService, clock: Any) -> None:
    await service.new_game(PEOPLE[0], HERE, "around-the-world", seed=4)
    await service.addbot(PEOPLE[0], HERE, 2)
    await service.start(PEOPLE[0], HERE)
    await play(service, PEOPLE[:1], 6)
    for _ in range(3):  # Alice is away: a stand-in plays her turns
        clock.advance(49)
        await service.tick()
    record = await service.store.active_game(HERE.channel_id)
    assert record is not None
    actions = await service.store.actions(record.id)
    assert {a.actor for a in actions} == {"human", "ai", "timeout"}
    for user, legend in ((PEOPLE[0], "🤖 an AI player's move · ⌛ played for a player whose time ran out"),
                         (PEOPLE[1], "🤖 Zug einer KI · ⌛ für jemanden gespielt, dessen Zeit abgelaufen war")):
        text = (await service.log_(user, HERE, 50))[0].text
        lines = text.splitlines()
        assert lines[-1] == legend, lines[-1]
        ai_lines = [line for line in lines if "` 🤖 " in line]
        stand_in = [line for line in lines if "` ⌛ " in line]
        assert ai_lines and stand_in
        assert not any("Alice" in line.split("🤖 ")[1].split()[0] for line in ai_lines)
        assert all("Alice" in line for line in stand_in)


# -- 6. final messages explain units and ties -----------------------------------------------------------
async def finished(service: TableService, game: str, seed: int) -> Any:
    """The channel's game (three players), played to its end by the AI in memory."""
    await open_table(service, game, seed=seed)
    record = await service.store.active_game(HERE.channel_id)
    assert record is not None
    loaded = service.load(record)
    rules = loaded.rules
    while not rules.is_over(loaded.state):
        seat = rules.to_act(loaded.state)[0]
        rules.push(loaded.state, seat, rules.ai_action(loaded.state, seat))
    return loaded


async def test_detour_result_gives_days_travelled_and_says_how_a_tie_was_broken(service: TableService) -> None:
    loaded = await finished(service, "detour", 3)
    result = loaded.rules.result(loaded.state)
    first, second = result["ranking"][:2]
    assert first["score"] == second["score"] and first["rank"] < second["rank"]  # a tie the rules broke
    names = {s.seat: s.name for s in loaded.record.seats}
    ahead = names[first["seat"]]
    for lang, unit, tie in (("en", "days travelled", f"(tied with {ahead}; the earlier arrival wins)"),
                            ("de", "Tage gereist", f"(gleichauf mit {ahead}; wer früher ankam, gewinnt)"),
                            ("fr", "jours de voyage", f"(à égalité avec {ahead} ; le premier arrivé gagne)")):
        text = service.parts.messages.result_text(loaded, loaded.ui.translator(lang))
        lines = text.splitlines()
        assert lines[1] == f"🥇 {names[first['seat']]} — {first['score']} {unit}", lines
        assert lines[2] == f"🥈 {names[second['seat']]} — {second['score']} {unit} {tie}", lines


async def test_atw_result_counts_days_and_says_who_is_not_home(service: TableService) -> None:
    loaded = await finished(service, "around-the-world", 3)
    text = service.parts.messages.result_text(loaded, loaded.ui.translator("en"))
    lines = text.splitlines()
    assert re.fullmatch(r"🥇 \S+ — \d+ days", lines[1]), lines
    assert any(re.fullmatch(r"🥉 \S+ — not home \(\d+ days used\)", line) for line in lines), lines
    de = service.parts.messages.result_text(loaded, loaded.ui.translator("de"))
    assert "nicht zu Hause (" in de and " Tage verbraucht)" in de


async def test_points_games_name_the_unit(service: TableService) -> None:
    for game in ("rails-and-sails", "eighty-days"):
        loaded = await finished(service, game, 3)
        text = service.parts.messages.result_text(loaded, loaded.ui.translator("fr"))
        assert re.search(r"^🥇 \S+ — -?\d+ points?$", text, re.M), text
        await service.cancel(PEOPLE[0], HERE)


# -- 7. /game stats speaks like a person ---------------------------------------------------------------
@pytest.mark.usefixtures("fake_game")
async def test_stats_show_a_skill_and_how_sure_it_is_never_mu_sigma_or_a_negative_rating(
        store: Store, clock: Any) -> None:
    from tests.service.test_ratings import play as play_countdown

    service = TableService(store, Settings(leaderboard_min_games=1), clock=clock, render_in_thread=False)
    await play_countdown(service, PEOPLE, [1, 1, 1], ai=1)  # one game: the first rating
    for user, line, footer in (
            (PEOPLE[0], r"\*\*Countdown\*\*: skill \*\*\d+\*\*, give or take \d+ \(still settling\) · played 1×",
             "Per game: only players with at least 1 rated games of that game are listed."),
            (PEOPLE[1], r"\*\*Countdown\*\*: Können \*\*\d+\*\*, plus minus \d+ \(noch unsicher\) · 1× gespielt",
             "Pro Spiel: Nur wer mindestens 1 gewertete Partien dieses Spiels hat"),
            (PEOPLE[2], r"\*\*Countdown\*\* : niveau \*\*\d+\*\*, à \d+ près \(encore incertain\)",
             "Par jeu : seuls les joueurs avec au moins 1 parties classées de ce jeu")):
        [mine] = await service.stats(user, HERE)
        text = mine.embeds[0].description
        assert re.search(line, text), text
        assert "μ" not in text and "σ" not in text and not re.search(r"-\d", text)
        [board] = await service.leaderboard(user, HERE, "countdown")
        assert footer in board.text
        lines = board.embeds[0].description.splitlines()
        assert len(lines) == 4 and not any("μ" in x or re.search(r"-\d", x) for x in lines), lines


# -- 8. values as people write them; no dead Undo button -------------------------------------------------
def undo_button(reply: Reply) -> Any:
    return next((b for row in reply.rows for b in row if ":undo:" in getattr(b, "custom_id", "")), None)


async def test_every_undo_button_shown_works(service: TableService) -> None:
    """Undo, then Undo again while one is offered: each offered button takes a move back; after
    a move the game will not let go of (a card drawn), none is offered."""
    await open_table(service, "around-the-world", PEOPLE[:2], seed=8)
    pressed = 0
    for _ in range(40):
        moves = await play(service, PEOPLE[:2], 1)
        if not moves:
            break
        user, _, replies = moves[0]
        button = undo_button(ack_of(user, replies))
        while button is not None:
            answer = ack_of(user, await service.component(user, HERE, button.custom_id))
            assert answer.outcome == "ok", answer.text
            pressed += 1
            button = undo_button(answer)
    assert pressed >= 10


async def test_settings_and_lobbies_show_values_as_people_write_them(service: TableService) -> None:
    lobby = await service.new_game(PEOPLE[0], HERE, "around-the-world", options="two_player_end=english")
    assert "Options: Events on the elephant leg: no · 2-player end: English rule (first home wins) · " \
           "Language: English" in lobby[0].text
    assert "=" not in lobby[0].text
    for user, now, off, every, never in (
            (PEOPLE[0], "reminders: every 12 hours · AI takes over: after 2 days", "Reminders are off.",
             "Reminders every 90 minutes.", "No AI plays for absent players: the game waits for them."),
            (PEOPLE[1], "Erinnerungen: alle 12 Stunden · KI übernimmt: nach 2 Tagen", "Erinnerungen sind aus.",
             "Erinnerungen alle 90 Minuten.", "Keine KI spielt für Abwesende: Das Spiel wartet auf sie."),
            (PEOPLE[2], "rappels : toutes les 12 heures · l'IA prend le relais : au bout de 2 jours",
             "Les rappels sont désactivés.", "Rappels toutes les 90 minutes.",
             "Aucune IA ne joue pour les absents : la partie les attend.")):
        await service.settings_cmd(PEOPLE[0], HERE, reminder_hours=12, timeout_hours=48)
        shown = (await service.settings_cmd(user, HERE))[0].text
        assert now in shown and " h " not in shown and "0 =" not in shown, shown
        host = User(PEOPLE[0].id, PEOPLE[0].name, user.locale)
        assert (await service.settings_cmd(host, HERE, reminder_hours=0))[0].text == f"✅ {off}"
        assert (await service.settings_cmd(host, HERE, reminder_hours=1.5))[0].text == f"✅ {every}"
        assert (await service.settings_cmd(host, HERE, timeout_hours=0))[0].text == f"✅ {never}"
    language = (await service.settings_cmd(PEOPLE[0], HERE, language="de"))[0].text
    assert language == "✅ Game language: Deutsch."


# -- 9. units agree between texts, summaries and timelapses ---------------------------------------------
def test_eighty_days_memories_count_periods_and_rounds_of_turns() -> None:
    from bot import games
    from bot.features.memories import frame_captions, replay_timeline, summary_of
    from tests.service.test_memories import playout

    job = playout("eighty-days")
    timeline = replay_timeline(job)
    for lang, period_end, within, subtitle in (
            ("en", "End of period I", r"Period II, after round of turns \d+", r"5 periods, \d+ rounds of turns"),
            ("de", "Ende von Periode I", r"Periode II, nach Runde \d+", r"5 Perioden, \d+ Runden"),
            ("fr", "Fin de la période I", r"Période II, après le tour de table \d+",
             r"5 périodes, \d+ tours de table")):
        t = games.get("eighty-days").ui.translator(lang)
        captions = frame_captions(timeline, t)
        assert len(captions) == len(timeline.views) and period_end in captions
        assert any(re.fullmatch(within, c) for c in captions), captions
        assert not any("of " + str(timeline.rounds) in c for c in captions)  # never "round 12 of 46"
        summary = summary_of(dataclasses.replace(job, lang=lang), timeline, t)
        assert re.match(subtitle, summary.subtitle), summary.subtitle


async def test_rails_status_counts_rounds_as_its_summary_does(service: TableService) -> None:
    await open_table(service, "rails-and-sails", PEOPLE[:2])
    await play(service, PEOPLE[:2], 4 + 5)  # the setup, then five turns
    record = await service.store.active_game(HERE.channel_id)
    loaded = service.load(record)
    view = loaded.rules.view(loaded.state, None)
    status = loaded.ui.status_text(view, loaded.names, loaded.ui.translator("en"))
    assert status.startswith(f"Round {loaded.rules.round_of(loaded.state)} (turn {view['turn']}) · "), status


# -- 10. mixed languages ----------------------------------------------------------------------------------
async def test_a_move_typed_in_the_games_language_works_for_a_player_of_another(service: TableService) -> None:
    """The channel shows German labels (the game's language); Alice reads English but may type
    what she sees there (in any case), as may Carol, who reads French."""
    await open_table(service, "rails-and-sails", [PEOPLE[0], PEOPLE[2]], language="de")
    record = await service.store.active_game(HERE.channel_id)
    assert record is not None
    loaded = service.load(record)
    for user, other in ((PEOPLE[0], "de"), (PEOPLE[2], "de")):
        seat = record.seat_of_user(user.id).seat  # type: ignore[union-attr]
        view = loaded.rules.view(loaded.state, seat)
        keep = [a for a in loaded.rules.legal_actions(loaded.state, seat) if len(a["ids"]) == 4][0]
        label = loaded.ui.action_label(keep, view, loaded.ui.translator(other))
        replies = await service.command(user, HERE, "rails", "keep", {"tickets": label.upper()})
        ack = ack_of(user, replies)
        assert ack.outcome == "ok", (label, ack.text)


async def test_german_and_french_refusals_read_naturally(service: TableService) -> None:
    bob = (await service.new_game(PEOPLE[1], HERE, "detour", language="xx"))[0].text
    assert bob == "⚠️ Diese Sprache gibt es hier nicht; verfügbar sind: en, de, fr."
    carol = (await service.settings_cmd(PEOPLE[2], HERE, reminder_hours=3))[0].text
    assert carol == "⚠️ Il n'y a aucune partie dans ce salon. Lances-en une avec `/partie nouvelle`."
