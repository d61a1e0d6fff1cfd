"""`Play`: what a seated player does once the game runs — game subcommands, button presses
and select choices, the private move menu, autocomplete, resigning. A press's custom id is
read once (`Press`); kinds a feature owns go to its handler from the hooks."""

from __future__ import annotations

from typing import Any

from bot import games
from bot.gameui import Command, GameUI, Param, QuickMenu, action_key
from bot.i18n import LANGUAGES, Translator
from bot.replies import Button, Reply, Select, SelectOption, User, Where
from bot.store import GameRecord
from bot.table.answers import Answers
from bot.table.hooks import Hooks
from bot.table.ids import Press, action_hash, custom_id, menu_payload, parse_press
from bot.table.lobby import Lobby
from bot.table.messages import Messages
from bot.table.shared import AI_USER_BASE, Loaded, Refusal, _match_label, _numbered, _shortlist, _trim
from bot.table.tables import Tables
from bot.table.talk import Talk
from bot.table.turns import Turns
from bot.text import echo
from engine import IllegalAction


def game_channel(record: GameRecord, where: Where) -> Where:
    """Where a press acts: the game's own channel (a click in a DM, on a hand we sent there,
    acts on the game's channel)."""
    if record.channel_id == where.channel_id:
        return where
    return Where(channel_id=record.channel_id, guild_id=record.guild_id, guild_locale=where.guild_locale)


class Play:
    def __init__(self, tables: Tables, talk: Talk, messages: Messages, turns: Turns, lobby: Lobby,
                 answers: Answers, hooks: Hooks) -> None:
        self.tables = tables
        self.talk = talk
        self.messages = messages
        self.turns = turns
        self.lobby = lobby
        self.answers = answers
        self.hooks = hooks

    async def resign(self, user: User, where: Where) -> list[Reply]:
        async with self.tables.lock(where.channel_id):
            loaded = await self.tables.running(where)
            seat = loaded.record.seat_of_user(user.id)
            if seat is None:
                raise Refusal("error.not_seated")
            record = loaded.record
            player_name = seat.name  # the seat keeps the name; 🤖 marks it wherever players are listed
            if seat.seat is not None:  # the game still counts for them, last (bot.features.ratings)
                record.settings.setdefault("resigned", {})[seat.seat] = [user.id, player_name]
            seat.is_bot = True
            seat.user_id = AI_USER_BASE - 100 - seat.position
            humans = [s for s in record.seats if not s.is_bot]
            if record.host_id == user.id:
                # host rights pass to the next seated human; with none left only moderators manage
                following = sorted(humans, key=lambda s: (s.position <= seat.position, s.position))
                record.host_id = following[0].user_id if following else 0
            t = self.talk.game_t(record, loaded.ui)
            if not humans:
                record.status = "cancelled"
                record.remind_at = record.timeout_at = None
            record.ai_pending = self.turns.ai_must_move(loaded)
            await self.tables.save_lobby(record)
            if record.status == "cancelled":
                return [Reply("channel", t("game.all_resigned"), channel_id=record.channel_id)]
            events: list[dict[str, Any]] = [{"type": "resigned", "seat": seat.seat, "name": player_name}]
            events += await self.turns.run_ai_safely(loaded)
            return await self.turns.publish(loaded, "resign", events)

    # -- moves ------------------------------------------------------------------
    async def command(self, user: User, where: Where, group: str, name: str, values: dict[str, Any]) -> list[Reply]:
        """A game subcommand, e.g. `/detour choose card:8`."""
        spec = games.by_group(group)
        command = next((c for c in spec.ui.commands if c.name == name), None) if spec else None
        if spec is None or command is None:
            raise Refusal("error.unknown_command")
        ui = spec.ui
        async with self.tables.lock(where.channel_id):
            loaded = await self.tables.running(where)
            if loaded.record.game_id != ui.game_id:
                other = loaded.ui.translator(self.talk.user_t(user).lang)("title")
                raise Refusal("error.wrong_game", title=other, group=loaded.ui.group)
            seat = self._acting_seat(loaded, user)
            legal = loaded.rules.legal_actions(loaded.state, seat)
            action = self._build(command, values, legal, ui, view=loaded.rules.view(loaded.state, seat),
                                 t=self.talk.user_t(user, ui), game_t=self.talk.game_t(loaded.record, ui))
            if action is None:
                raise Refusal(command.refusal or "error.not_now", ui=ui)  # the game's catalog words it
            return await self.turns.act(loaded, user, seat, action)

    def _acting_seat(self, loaded: Loaded, user: User) -> str:
        seat = loaded.record.seat_of_user(user.id)
        if seat is None or seat.seat is None:
            raise Refusal("error.not_seated")
        to_act = loaded.rules.to_act(loaded.state)
        if seat.seat not in to_act:
            waiting = ", ".join(loaded.names.get(s, s) for s in to_act)
            raise Refusal("error.not_your_turn", waiting=waiting)
        return seat.seat

    def _build(self, command: Command, values: dict[str, Any], legal: list[dict[str, Any]], ui: GameUI,
               *, view: Any = None, t: Translator | None = None,
               game_t: Translator | None = None) -> dict[str, Any] | None:
        """The engine action for typed option values. Values may be what people type, not only
        exact keys: a `pick` value is matched against the labels the autocomplete shows (in the
        user's language, `t`, and the game's, `game_t`, whose labels the channel shows, for the
        seat's `view`), a `choices` value against its translated labels; what matches nothing
        is refused with the list of what would."""
        values = {k: v for k, v in values.items() if v is not None}
        t = t or ui.translator("en")
        for param in command.params:
            if param.kind == "pick" and param.name in values:
                values[param.name] = self._pick(command, param, str(values[param.name]), legal, ui, view,
                                                [t] + ([game_t] if game_t and game_t.lang != t.lang else []))
            elif param.required and param.name not in values:
                raise Refusal("error.missing_option", option=param.name)
            elif param.choices and param.name in values:
                values[param.name] = self._resolve_choice(param, values[param.name], ui, t)
        if command.build is not None:
            return command.build(values, legal)
        picks = [values[p.name] for p in command.params if p.kind == "pick" and p.name in values]
        if picks:
            return picks[0]
        wanted = {k: v for k, v in values.items()}
        for action in legal:
            if action.get("type") == command.name and all(action.get(k) == v for k, v in wanted.items()):
                return action
        return None

    def _pick(self, command: Command, param: Param, raw: str, legal: list[dict[str, Any]], ui: GameUI,
              view: Any, languages: list[Translator]) -> dict[str, Any]:
        """The legal action a typed `pick` value names: its key, or a label in one of
        `languages` (the first is the user's, which words the refusal). Several matches are
        listed, numbered and whole."""
        t = languages[0]
        offered = [a for a in legal if not param.types or a["type"] in param.types]
        if command.build is not None:
            offered = [a for a in offered if command.build({param.name: a}, legal) is not None]
        labelled = [(_trim(ui.action_label(a, view, lt), 100), a) for lt in languages for a in offered] \
            if view is not None else []
        found = self._resolve_pick(raw, legal, param.types, labelled)
        if found is not None:
            return found
        # the refusals below number each move by its place among the offered ones, so the
        # number typed back names it
        number = raw.strip().lstrip("#")
        if number.isdigit() and 1 <= int(number) <= len(offered):
            return offered[int(number) - 1]
        matches = _match_label(raw, labelled)[1]
        if len(matches) > 1:
            by_label = {label: action for label, action in labelled}
            numbers = [offered.index(by_label[label]) + 1 for label in matches]
            raise Refusal("error.ambiguous_pick", value=echo(raw), count=len(matches),
                          choices=_numbered(matches, t, numbers=numbers))
        shortlist = [label for label, _ in labelled[:len(offered)]]
        if not shortlist:
            raise Refusal("error.bad_pick", value=echo(raw))
        # nothing matched: a few of the moves, to show what is meant (the menu lists them all)
        raise Refusal("error.bad_pick_list", value=echo(raw), choices=_numbered(shortlist, t, keep=8))

    @staticmethod
    def _resolve_pick(value: str, legal: list[dict[str, Any]], types: tuple[str, ...],
                      labelled: list[tuple[str, dict[str, Any]]] | None = None) -> dict[str, Any] | None:
        """An exact action key (what the autocomplete submits) or hash; else a label from
        `labelled` (label, action): exactly, ignoring case, or as the one label containing it."""
        for action in legal:
            if types and action["type"] not in types:
                continue
            if value in (action_key(action), action_hash(action)):
                return action
        return _match_label(value, labelled or [])[0]

    @staticmethod
    def _resolve_choice(param: Param, value: Any, ui: GameUI, t: Translator) -> Any:
        """One of `param.choices` for a typed value: the value itself (any case), or its label in
        any language (`choice.<param>.<value>`), exactly or as the one label containing it."""
        if value in param.choices and not isinstance(value, bool):
            return value
        labelled: list[tuple[str, Any]] = []
        for choice in param.choices:
            labelled += [(str(choice), choice), (str(choice).replace("_", " "), choice)]
            for lang in LANGUAGES:
                tl = ui.translator(lang)
                key = f"choice.{param.name}.{choice}"
                if tl.has(key):
                    labelled.append((tl(key), choice))
        found, _ = _match_label(str(value), labelled)
        if found is None:
            allowed = [f"`{c}`" + (f" ({t(k)})" if t.has(k := f"choice.{param.name}.{c}") and t(k) != str(c) else "")
                       for c in param.choices]
            raise Refusal("error.bad_choice_list", option=param.name, value=echo(value),
                          choices=_shortlist(allowed, t))
        return found

    # -- components -------------------------------------------------------------
    async def component(self, user: User, where: Where, value: str, values: list[str] | None = None) -> list[Reply]:
        """A button press or select choice with one of our custom ids."""
        press = parse_press(value, values)
        if press is None:
            raise Refusal("error.bad_button")
        own = self.hooks.components.get(press.kind)
        if own is not None:  # a feature's button (undo, rematch, follow)
            return await own(user, where, press)
        record = await self.tables.store.get_game(press.game_pk)
        if record is None or not record.active:
            raise Refusal("error.stale_game")
        where = game_channel(record, where)
        if press.kind in ("join", "leave", "addbot", "start"):
            if record.status != "lobby":
                raise Refusal("error.stale")
            handler = {"join": self.lobby.join, "leave": self.lobby.leave, "addbot": self.lobby.addbot,
                       "start": self.lobby.start}[press.kind]
            return await handler(user, where)
        if press.kind == "hand":
            return await self.answers.hand(user, where)
        if press.kind == "menu":
            return await self._press_menu(user, where, record, press)
        if press.kind in ("act", "sel", "pact", "psel"):
            return await self._press_move(user, where, record, press)
        raise Refusal("error.stale")

    async def _press_menu(self, user: User, where: Where, record: GameRecord, press: Press) -> list[Reply]:
        group = menu_payload(press.payload)[0]
        if group is not None:
            # a public "Travel…" button: whether the presser has such a move is their secret
            loaded = await self.tables.running(where)
            seat = self._acting_seat(loaded, user)
            if not any(loaded.ui.menu_group(a)[:40] == group for a in loaded.rules.legal_actions(loaded.state, seat)):
                # why, from the presser's own view, told only to them
                t = self.talk.user_t(user, loaded.ui)
                why = loaded.ui.no_moves_text(group, loaded.rules.view(loaded.state, seat), t)
                raise Refusal("error.no_group_moves", group=self.messages.group_label(group, t),
                              why=f" {why}" if why else "")
        return await self.menu(user, where, press.payload, stale=press.version != record.version)

    async def _press_move(self, user: User, where: Where, record: GameRecord, press: Press) -> list[Reply]:
        """A move button or select option: public ones ("act", "sel") carry the game version,
        private menu ones ("pact", "psel") the presser's own move count."""
        # a stale press is refused with a button that opens the menu afresh
        stale = Refusal("error.stale_move", rows=[[Button(self.talk.user_t(user)("button.play"),
                                                          custom_id(record.id, record.version, "menu"),
                                                          "success", "🎲")]])
        async with self.tables.lock(where.channel_id):
            loaded = await self.tables.running(where)
            if press.kind in ("act", "sel") and press.version != loaded.record.version:
                raise stale  # a public button: the game moved on
            seat = self._acting_seat(loaded, user)
            if press.kind in ("pact", "psel") and \
                    press.version != await self.tables.store.seat_action_count(record.id, seat):
                raise stale  # a private menu: its owner has moved since
            legal = loaded.rules.legal_actions(loaded.state, seat)
            action = next((a for a in legal if action_hash(a) == press.chosen), None)
            if action is None:
                return self._why_not(loaded, user, seat, press)
            return await self.turns.act(loaded, user, seat, action)

    def _why_not(self, loaded: Loaded, user: User, seat: str, press: Press) -> list[Reply]:
        """A public quick button the presser may not use: the game's own reason (tried on a
        copy of the game, so nothing changes), told only to them; else the general refusal."""
        if press.kind == "act":
            rules = loaded.rules
            public = rules.view(loaded.state, None)
            action = next((a for a in loaded.ui.quick_actions(public, seat)
                           if not isinstance(a, QuickMenu) and action_hash(a) == press.chosen), None)
            if action is not None:
                try:
                    rules.apply(rules.load(rules.dump(loaded.state)), seat, action)
                except IllegalAction as exc:
                    return self.talk.illegal(user, exc, loaded.ui)
        raise Refusal("error.not_now")

    async def menu(self, user: User, where: Where, payload: str = "", *, stale: bool = False) -> list[Reply]:
        """The private move menu: every legal action of the user, as buttons or selects."""
        loaded = await self.tables.running(where)
        seat = self._acting_seat(loaded, user)
        t = self.talk.user_t(user, loaded.ui)
        record, rules = loaded.record, loaded.rules
        legal = rules.legal_actions(loaded.state, seat)
        view = rules.view(loaded.state, seat)
        # the menu's moves stay valid until this seat moves (not when others do, e.g. in a
        # simultaneous phase): their ids carry the seat's own move count, not the game version
        own = await self.tables.store.seat_action_count(record.id, seat)
        group_filter, page = menu_payload(payload)
        groups: dict[str, list[dict[str, Any]]] = {}
        for action in legal:
            groups.setdefault(loaded.ui.menu_group(action), []).append(action)
        text = (t("menu.moved_on") + "\n" if stale else "") + t("menu.header")

        def option(a: dict[str, Any]) -> SelectOption:
            return SelectOption(_trim(loaded.ui.action_label(a, view, t), 100), action_hash(a))

        def select(actions: list[dict[str, Any]], placeholder: str, n: int) -> Select:
            return Select(custom_id(record.id, own, "psel", str(n)), _trim(placeholder, 150),
                          tuple(option(a) for a in actions))

        rows: list[list[Any]] = []
        if group_filter is None and len(legal) <= 10:
            buttons = [Button(_trim(loaded.ui.action_label(a, view, t), 80),
                              custom_id(record.id, own, "pact", action_hash(a)), "primary") for a in legal]
            rows = [buttons[i:i + 5] for i in range(0, len(buttons), 5)]
        elif group_filter is None and len(groups) <= 5 and all(len(v) <= 25 for v in groups.values()):
            rows = [[select(v, self.messages.group_label(g, t), i)] for i, (g, v) in enumerate(groups.items())]
        elif group_filter is None:
            buttons = [Button(_trim(f"{self.messages.group_label(g, t)} ({len(v)})", 80),
                              custom_id(record.id, record.version, "menu", f"g={g[:40]};p=0"), "secondary")
                       for g, v in groups.items()][:25]
            rows = [buttons[i:i + 5] for i in range(0, len(buttons), 5)]
        else:
            actions = groups.get(group_filter, [])
            per_page = 100
            pages = max(1, -(-len(actions) // per_page))
            page = min(page, pages - 1)
            chunk = actions[page * per_page:(page + 1) * per_page]
            rows = [[select(chunk[i:i + 25], f"{self.messages.group_label(group_filter, t)} {i // 25 + 1}", i)]
                    for i in range(0, len(chunk), 25)]
            nav: list[Button] = [Button(t("button.back"), custom_id(record.id, record.version, "menu"), "secondary")]
            if page > 0:
                nav.append(Button("◀", custom_id(record.id, record.version, "menu",
                                                 f"g={group_filter};p={page - 1}"), "secondary"))
            if page < pages - 1:
                nav.append(Button("▶", custom_id(record.id, record.version, "menu",
                                                 f"g={group_filter};p={page + 1}"), "secondary"))
            rows.append(nav)
            text += "\n" + t("menu.page", page=page + 1, pages=pages)
        return [self.talk.private(user, text, rows=rows)]


    async def autocomplete(self, user: User, where: Where, group: str, name: str, param: str,
                           current: str) -> list[tuple[str, str]]:
        """Choices for a "pick" option: the user's legal actions of that kind, filtered."""
        game = games.by_group(group)
        ui = game.ui if game else None
        command = next((c for c in ui.commands if c.name == name), None) if ui else None
        spec = next((p for p in command.params if p.name == param), None) if command else None
        if ui is None or command is None or spec is None or spec.kind != "pick":
            return []
        record = await self.tables.store.active_game(where.channel_id)
        if record is None or record.status != "running" or record.game_id != ui.game_id:
            return []
        loaded = self.tables.load(record)
        seat = record.seat_of_user(user.id)
        if seat is None or seat.seat not in loaded.rules.to_act(loaded.state):
            return []
        t = self.talk.user_t(user, ui)
        view = loaded.rules.view(loaded.state, seat.seat)
        needle = current.casefold().strip()
        choices: list[tuple[str, str]] = []
        legal = loaded.rules.legal_actions(loaded.state, seat.seat)
        for action in legal:
            if spec.types and action["type"] not in spec.types:
                continue
            if command.build is not None and command.build({spec.name: action}, legal) is None:
                continue  # offer only what this command would accept
            label = _trim(ui.action_label(action, view, t), 100)
            if needle and needle not in label.casefold():
                continue
            key = action_key(action)
            choices.append((label, key if len(key) <= 100 else action_hash(action)))
            if len(choices) == 25:
                break
        return choices

