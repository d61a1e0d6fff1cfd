"""The local table: play through the table service at a terminal, or from a script.

    python -m bot.local                         # interactive, several named users
    python -m bot.local --script FILE --out DIR # one JSON line per reply

Interactively the games are kept in `local.sqlite3` in the current folder (`--db FILE` to
choose another, `--memory` for a throwaway table), so a game survives quitting and
restarting; a script starts from an empty table in memory unless `--db` is given.

Script and interactive lines:
    <user> /<command> [sub] [option:value ...]   e.g.  alice /game new game:detour
                                                       bob /detour choose card:8
    <user> !press <label or number>              press a button the user can see
    <user> !choose <label or number>             pick an option of a select the user can see
    <user> !locale <en|de|fr>                    the user's Discord language
    !wait <hours>                                advance the clock and run reminders/timeouts
    # comment                                    ignored
Interactively, a line starting with `/` or `!` is typed by the current user; `@bob`
switches the current user. Values with spaces go in quotes (options:"a=1 b=2"), or
simply follow their option: route:Paris London.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import math
import os
import re
import shlex
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bot import games
from bot.adapters.stopping import Stopped, StopRequest
from bot.commands import BY_NAME, GAME_COMMANDS, Option
from bot.gameui import Param
from bot.i18n import LANGUAGES, Translator
from bot.images.pool import pool_for
from bot.replies import Button, Reply, Select, ThreadTarget, User, Where
from bot.service import TableService
from bot.settings import Settings, SettingsError, load_settings
from bot.store import SQLiteStore

log = logging.getLogger("passepartout.local")

DEFAULT_DB = "local.sqlite3"
_OPTION = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*):(.*)$", re.DOTALL)
#: Discord markup the local table shows in words (`LocalTable.plain`)
_MENTION = re.compile(r"<@!?(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")
_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")

@dataclass(frozen=True)
class _Unreadable:
    """A typed option the table could not read: the note to show instead of a call."""

    replies: list[Reply]


class FakeClock:
    """Local time that `!wait` can move forward, so reminders can be tried at once."""

    def __init__(self) -> None:
        import time

        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def user_id_for(name: str) -> int:
    """A stable fake Discord id per local user name."""
    return int.from_bytes(hashlib.blake2s(name.lower().encode(), digest_size=6).digest(), "big")


class LocalTable:
    def __init__(self, service: TableService, clock: FakeClock, *, out_dir: Path | None = None,
                 channel_id: int = 1, guild_id: int = 1, lang: str = "en", emit: TextIO | None = None,
                 pretty: bool = False) -> None:
        self.service = service
        self.clock = clock
        self.out_dir = out_dir
        self.where = Where(channel_id=channel_id, guild_id=guild_id, guild_locale=lang)
        self.locales: dict[str, str] = {}
        self.default_lang = lang
        self.emit = emit or sys.stdout  # looked up now, so a redirected stdout is honoured
        self.pretty = pretty  # interactive: readable blocks instead of JSON lines
        self.image_count = 0
        self._counted = False  # numbering goes on after the images an earlier run left in out_dir
        self.visible: dict[str, list[Reply]] = {}  # user -> latest replies they can see, newest last
        self.names: dict[int, str] = {}
        self.channel_log: list[Reply] = []
        self._channel_recent: list[Reply] = []  # what someone who just sat down sees in the channel
        self.threads: dict[int, str] = {}  # thread id -> name, for followers' copies

    def user(self, name: str) -> User:
        """The local user `name`; someone new sees the channel's recent messages and their buttons."""
        uid = user_id_for(name)
        self.names[uid] = name
        if name not in self.visible:
            self.visible[name] = list(self._channel_recent)
        return User(id=uid, name=name, locale=self.locales.get(name, self.default_lang))

    async def resume(self) -> list[Reply]:
        """After a restart: show the channel's game (board and buttons) again, as the channel
        would still show it, so `!press` works at once. Nothing when no game is running.
        First the scheduler runs once, as the bot does at start: AI moves that a crash
        interrupted are made, due reminders and timeouts happen."""
        await self._deliver(await self.service.tick())
        record = await self.service.store.active_game(self.where.channel_id)
        if record is None:
            return []
        for seat in record.seats:
            if not seat.is_bot:
                self.names[seat.user_id] = seat.name
        host = next((s for s in record.seats if s.user_id == record.host_id), None) or next(
            (s for s in record.seats if not s.is_bot), None)
        if host is None:
            return []
        user = User(id=host.user_id, name=host.name, locale=host.lang)
        shown = await self.service.guarded(user, self.service.status(user, self.where))
        return await self._deliver([Reply("channel", r.text, channel_id=self.where.channel_id, files=r.files,
                                          rows=r.rows) for r in shown if r.to == "ephemeral"])

    async def post_memories(self) -> list[Reply]:
        """After the final message of a game: its summary image and timelapse, written to the
        image folder like every picture (their paths are printed)."""
        shown: list[Reply] = []
        if self.service.memories_waiting:
            async for reply in self.service.post_game_memories():
                shown += await self._deliver([reply])
        return shown

    # -- parsing ----------------------------------------------------------------
    async def run_line(self, line: str, current: str | None = None) -> list[Reply]:
        """Run one typed or scripted line. Whatever it says, the answer is a message and the
        table goes on: nothing typed raises."""
        try:
            replies = await self._run_line(line, current)
            return replies + await self.post_memories()
        except Exception as exc:
            log.exception("local table line failed: %r", line)
            return await self._deliver(self._local_error(current, "local.failed", detail=type(exc).__name__))

    async def _run_line(self, line: str, current: str | None) -> list[Reply]:
        line = line.strip()
        if not line or line.startswith("#"):
            return []
        try:
            words = shlex.split(line)
        except ValueError as exc:
            return await self._deliver(self._local_error(current, "local.unreadable", detail=str(exc)))
        if not words:
            return []
        if words[0] == "!wait":
            hours = _number(words[1]) if len(words) > 1 else 1.0
            if hours is None or hours < 0 or len(words) > 2:
                return await self._deliver(self._local_error(current, "local.wait"))
            self.clock.now += hours * 3600
            return await self._deliver(await self.service.tick())
        if words[0].startswith(("/", "!")):
            if current is None:
                return await self._deliver(self._local_error(None, "local.who"))
            name = current
        else:
            name, words = words[0], words[1:]
        return await self._user_line(name, words)

    async def _user_line(self, name: str, words: list[str]) -> list[Reply]:
        """What `name` typed, the name already taken off: a table command (`!locale`,
        `!press`, `!choose`) or a slash command for the service."""
        user = self.user(name)
        if not words:
            return await self._deliver(self._local_error(name, "local.no_command", name=name))
        head = words[0]
        if head == "!locale":
            if len(words) != 2 or words[1].split("-")[0].lower() not in LANGUAGES:
                return await self._deliver(self._local_error(name, "local.locale", languages=", ".join(LANGUAGES)))
            self.locales[name] = words[1]
            return []
        if head in ("!press", "!choose"):
            target = " ".join(words[1:]).strip()
            if not target:
                return await self._deliver(self._local_error(name, "local.which"))
            return await self._deliver(await self._component(user, name, target, select=head == "!choose"))
        if not head.startswith("/") or len(head) < 2:
            return await self._deliver(self._local_error(name, "local.unknown", command=head))
        return await self._deliver(await self._slash(user, head[1:], words[1:]))

    def _local_error(self, who: str | None, key: str, **params: object) -> list[Reply]:
        """A private, translated note from the local table itself (not from the service)."""
        lang = self.locales.get(who, self.default_lang) if who else self.default_lang
        return [Reply("ephemeral", "⚠️ " + Translator(lang)(key, **params),
                      user_id=user_id_for(who) if who else None)]

    @staticmethod
    def _split_options(words: list[str]) -> tuple[list[str], dict[str, str]]:
        """`sub key:value more words key2:value` -> (["sub"], {key: "value more words", ...}):
        words after an option that are not options themselves belong to its value, so a
        city or route name with spaces can be typed without quotes."""
        positional: list[str] = []
        options: dict[str, str] = {}
        last: str | None = None
        for word in words:
            match = _OPTION.match(word)
            if match:
                last = match.group(1)
                options[last] = match.group(2)
            elif last is not None:
                options[last] = f"{options[last]} {word}".strip()
            else:
                positional.append(word)
        return positional, options

    async def _slash(self, user: User, command: str, words: list[str]) -> list[Reply]:
        positional, options = self._split_options(words)
        sub = positional[0] if positional else ""
        if command != "game" and _LOCALISED_GAME_NAMES.get(command) == "game":
            # the de/fr messages name /spiel neu, /partie nouvelle: accept them here too
            command = "game"
            sub = _LOCALISED_SUB_NAMES.get(sub, sub)
        svc, where = self.service, self.where
        if command == "game":
            return await svc.guarded(user, self._game(user, sub, options))
        game = games.by_group(command)
        if game is None:
            return await svc.guarded(user, svc.unknown_command(user, where, command, None))
        ui = game.ui
        spec = next((c for c in ui.commands if c.name == sub), None)
        if spec is None:
            return await svc.guarded(user, svc.unknown_command(user, where, sub, command))
        values: dict[str, Any] = {}
        for param in spec.params:
            if param.name in options:
                converted = _convert(param, options[param.name])
                if converted is None:
                    return svc.refuse(user, "error.bad_choice", option=param.name, value=options[param.name])
                values[param.name] = converted
        return await svc.guarded(user, svc.command(user, where, command, sub, values))

    async def _game(self, user: User, sub: str, typed: dict[str, str]) -> list[Reply]:
        """`/game <sub> option:value …`, read and dispatched by the declaration both adapters
        share (`bot.commands`); options it does not declare are ignored, as before."""
        entry = BY_NAME.get(sub)
        if entry is None:  # `/game` alone is help; else the closest commands
            return await self.service.unknown_command(user, self.where, sub)
        values: dict[str, Any] = {}
        for option in entry.options:
            raw = typed.get(option.name)
            if raw is None:
                continue
            read = self._read(user, option, raw)
            if isinstance(read, _Unreadable):
                return read.replies
            values[option.name] = read
        return await entry.call(self.service, user, self.where, values)

    def _read(self, user: User, option: Option, raw: str) -> Any:
        """A typed option value in the type the service takes, or `_Unreadable` with the note
        for the person who typed it. A local thread or player is a name: a thread is on this
        table's server and the table may post in it; a player is a local user."""
        text = raw.strip()
        if option.kind == "int":
            if not text.isdigit():
                return _Unreadable(self._local_error(user.name, "local.number", option=option.name, value=raw))
            return int(text)
        if option.kind == "hours":
            hours = _number(raw)
            return _Unreadable(self.service.refuse(user, "error.bad_hours")) if hours is None else hours
        if option.kind == "bool":
            return raw.lower() in ("1", "true", "yes", "on")
        if option.required:
            return raw
        if not text:  # an optional option typed empty is left out
            return option.default
        if option.kind == "thread":
            thread = ThreadTarget(user_id_for("thread:" + text), self.where.guild_id, text)
            self.threads[thread.id] = text
            return thread
        if option.kind == "user":
            return self.user(text)
        return raw

    async def _component(self, user: User, name: str, target: str, *, select: bool) -> list[Reply]:
        """Find the button/select option `target` among what `name` can see, newest first: a
        number counts in the newest message with buttons, a label may also be on an older one
        (e.g. Undo on a move's confirmation, under the turn message that followed it)."""
        newest: list[tuple[str, str, list[str] | None]] = []  # (label, custom id, values)
        chosen = None
        for reply in reversed(self.visible.get(name, [])):
            candidates: list[tuple[str, str, list[str] | None]] = []
            for row in reply.rows:
                for comp in row:
                    if select and isinstance(comp, Select):
                        candidates += [(o.label, comp.custom_id, [o.value]) for o in comp.options]
                    elif not select and isinstance(comp, Button) and not comp.disabled:
                        candidates.append((comp.label, comp.custom_id, None))
            if not candidates:
                continue
            if not newest:
                newest = candidates
                if target.isdigit() and 1 <= int(target) <= len(candidates):
                    chosen = candidates[int(target) - 1]
                    break
            low = target.casefold()
            chosen = next((c for c in candidates if c[0].casefold() == low), None) or next(
                (c for c in candidates if low in c[0].casefold()), None)
            if chosen is not None:
                break
        if not newest:
            return self._local_error(name, "local.no_buttons")
        if chosen is None:
            labels = " | ".join(c[0] for c in newest)
            return self._local_error(name, "local.no_such", target=target, labels=labels)
        return await self.service.guarded(user, self.service.component(user, self.where, chosen[1], chosen[2]))

    # -- output -----------------------------------------------------------------
    async def _deliver(self, replies: list[Reply]) -> list[Reply]:
        for reply in replies:
            paths: list[str] = []
            for attachment in reply.files:
                if self.out_dir is not None and not self._counted:
                    self.image_count = max(self.image_count, _last_image_number(self.out_dir))
                    self._counted = True
                self.image_count += 1
                if self.out_dir is not None:
                    self.out_dir.mkdir(parents=True, exist_ok=True)
                    path = self.out_dir / f"{self.image_count:04d}-{attachment.filename}"
                    path.write_bytes(attachment.data)
                    paths.append(str(path))
                else:
                    paths.append(attachment.filename)
            if reply.follow is not None:
                pass  # a follower's copy: nothing to press, and not the channel
            elif reply.to == "channel":
                self._channel_recent = (self._channel_recent + [reply])[-6:]
                for name in list(self.visible) + [n for n in self.names.values() if n not in self.visible]:
                    self.visible.setdefault(name, []).append(reply)
            elif reply.user_id is not None:
                recipient = self.names.get(reply.user_id)
                if recipient is not None:
                    self.visible.setdefault(recipient, []).append(reply)
            for seen in self.visible.values():
                del seen[:-6]
            self._print(reply, paths)
        return replies

    def plain(self, text: str) -> str:
        """Discord markup as Discord would show it, in words: `<@id>` a local user's @name,
        `<#id>` #channel or a followed thread's #name, `<t:…>` a date and time on the table's
        clock (`R`: also how far from now), so no raw markup reaches the terminal."""
        text = _MENTION.sub(lambda m: "@" + self.names.get(int(m.group(1)), m.group(1)), text)
        text = _CHANNEL.sub(self._channel_name, text)
        return _TIMESTAMP.sub(self._time, text)

    def _channel_name(self, match: re.Match[str]) -> str:
        cid = int(match.group(1))
        return "#channel" if cid == self.where.channel_id else "#" + self.threads.get(cid, f"channel-{cid}")

    def _time(self, match: re.Match[str]) -> str:
        when = int(match.group(1))
        shown = time.strftime("%Y-%m-%d %H:%M", time.localtime(when))
        if match.group(2) != "R":
            return shown
        minutes = round((when - self.clock()) / 60)
        ahead = abs(minutes)
        span = f"{ahead} min" if ahead < 60 else f"{ahead / 60:.0f} h" if ahead < 48 * 60 else f"{ahead / 1440:.0f} d"
        return f"{shown} ({'in ' if minutes >= 0 else ''}{span}{'' if minutes >= 0 else ' ago'})"

    def buttons_seen(self, name: str) -> str:
        """The buttons and menu `name` can press now (of the newest message that has any),
        as the replies list them: what `@name` shows on switching to that user."""
        for reply in reversed(self.visible.get(name, [])):
            listed = _controls(reply)
            if listed:
                return f"── {name} sees ──\n" + "\n".join(listed) + "\n"
        return ""

    def _print(self, reply: Reply, paths: list[str]) -> None:
        data = reply.as_json(paths)
        data["user"] = self.names.get(reply.user_id) if reply.user_id is not None else None
        data["text"] = self.plain(str(data["text"]))
        if reply.embeds:
            data["embeds"] = [{"title": e.title, "description": self.plain(e.description)} for e in reply.embeds]
        if any(a.description for a in reply.files):  # each image's alt text, in the order of "files"
            data["alt"] = [a.description for a in reply.files]
        if reply.follow is not None:
            data["follower"] = data["user"]
            if reply.to == "thread" and reply.channel_id is not None:
                data["thread"] = self.threads.get(reply.channel_id, reply.channel_id)
        if self.pretty:
            self.emit.write(self._pretty(reply, data, paths))
        else:
            self.emit.write(json.dumps(data, ensure_ascii=False) + "\n")
        self.emit.flush()

    def _pretty(self, reply: Reply, data: dict[str, object], paths: list[str]) -> str:
        """What a person at the terminal reads: who sees it, the text, images, buttons."""
        header = {"channel": "── #channel", "ephemeral": f"── only {data['user']} sees",
                  "dm": f"── DM to {data['user']}", "thread": f"── thread {data.get('thread')}"}
        follower = f" (to follower {data['user']})" if reply.follow is not None else ""
        lines = [f"{header[reply.to]}{follower} ──"] + ([str(data["text"])] if data["text"] else [])
        for embed in reply.embeds:
            lines += [f"▌ {embed.title}"] if embed.title else []
            lines += [f"▌ {line}" for line in self.plain(embed.description).split("\n")]
        lines += [f"   🖼  {p}" + (f" — {a.description}" if a.description else "")
                  for p, a in zip(paths, reply.files, strict=True)]
        lines += _controls(reply)
        return "\n".join(lines) + "\n\n"


def _controls(reply: Reply) -> list[str]:
    """A reply's buttons and menu options, numbered as `!press` and `!choose` count them."""
    lines = []
    buttons = [c for row in reply.rows for c in row if isinstance(c, Button) and not c.disabled]
    if buttons:
        lines.append("   buttons (!press <n>): " + "  ".join(f"[{i}] {b.label}" for i, b in enumerate(buttons, 1)))
    options = [o for row in reply.rows for c in row if isinstance(c, Select) for o in c.options]
    if options:
        lines.append("   menu (!choose <n>): " + "  ".join(f"[{i}] {o.label}" for i, o in enumerate(options, 1)))
    return lines


def _last_image_number(folder: Path) -> int:
    """The highest `NNNN-` number of the images already in `folder` (0: none), so a new run
    writes after them and never over an earlier run's pictures."""
    numbers = [int(p.name[:4]) for p in folder.glob("[0-9][0-9][0-9][0-9]-*")] if folder.is_dir() else []
    return max(numbers, default=0)


def _localised_names() -> tuple[dict[str, str], dict[str, str]]:
    """Localised command names (catalog keys `name.game`, `name.game.<sub>`) -> English."""
    from bot.i18n import LANGUAGES, Translator

    groups: dict[str, str] = {}
    subs: dict[str, str] = {}
    for lang in LANGUAGES:
        t = Translator(lang)
        groups[t("name.game")] = "game"
        for entry in GAME_COMMANDS:
            if t.has(entry.name_key):
                subs[t(entry.name_key)] = entry.name
    return groups, subs


_LOCALISED_GAME_NAMES, _LOCALISED_SUB_NAMES = _localised_names()


def _convert(param: Param, raw: str) -> Any:
    """A typed option value in the type the service expects. A value of a `choices` option that
    is not literally one of them is passed on as typed: the service matches it against the
    choices and their translated labels (`source:train`, `card:block`) or lists the allowed ones."""
    if param.kind == "int":
        try:
            return int(raw)
        except ValueError:
            return raw if param.choices else None
    if param.kind == "bool":
        return raw.lower() in ("1", "true", "yes", "on")
    if param.choices:
        for choice in param.choices:
            if str(choice).lower() == raw.lower():
                return choice
    return raw


class _OneLineFormatter(logging.Formatter):
    """Log lines for a person at the terminal: an error's type and message, no traceback."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"{record.levelname.lower()}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text += f" ({type(exc).__name__}: {str(exc)[:200]})"
        return text


def _setup_logging() -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(_OneLineFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)


def _number(raw: str) -> float | None:
    """A finite number typed by a person, or None."""
    try:
        value = float(raw.replace(",", "."))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _wants_pool() -> bool:
    """Render processes only when RENDER_PROCESSES (environment or .env) asks for a number of
    them: one person at a terminal draws a board at a time, in a thread, and two warmed
    render processes of about 400 MB each were most of the table's memory."""
    return os.environ.get("RENDER_PROCESSES", "").strip().isdigit()


async def _open_table(args: argparse.Namespace, db: str) -> LocalTable:
    settings = load_settings(None if args.no_env else ".env")
    clock = FakeClock()
    store = SQLiteStore(db)
    try:
        await store.open()
    except BaseException:
        await store.close()
        raise
    pool = pool_for(settings.render_processes, settings.render_cache_mb) if _wants_pool() else None
    if pool is not None:
        await pool.start()  # workers warm up while the table opens
    service = TableService(store, Settings(**{**settings.__dict__, "discord_token": None}), clock=clock,
                           render_pool=pool)
    out = Path(args.out) if args.out else (Path("out") if not args.script else None)
    return LocalTable(service, clock, out_dir=out, lang=args.lang, pretty=not args.script and not args.json)


async def _run_script(table: LocalTable, lines: list[str], stop: StopRequest) -> None:
    """Every line in turn; after a stop signal the line in hand finishes and no other starts."""
    await table._deliver(await table.service.tick())  # as at any start: finish what a crash interrupted
    await table.post_memories()
    for line in lines:
        if stop.requested:
            raise Stopped
        await table.run_line(line)


def _interactive(runner: asyncio.Runner, table: LocalTable, db: str, stop: StopRequest) -> int:
    """Read lines in the main thread (so a stop signal at the prompt stops at once) and run each
    on the runner's loop (a stop signal then lets the line finish first)."""
    print("Passepartout local table. Type `@alice` to become alice, then `/game new game:detour`.")
    print("Games:", ", ".join(sorted(games.specs())), "— `/game rules game:<id>` explains one.")
    print(f"Games are kept in {db}" if db != ":memory:" else "A throwaway table in memory.",
          "— Ctrl-D or Ctrl-C quits.")
    runner.run(stop.bounded(table.resume()))
    current = "alice"
    table.user(current)
    while True:
        try:
            with stop.waiting():
                line = input(f"[{current}]> ")
        except EOFError:
            print()
            return 0
        line = line.strip()
        if line.startswith("@") and len(line) > 1:
            current = line[1:].split()[0]
            table.user(current)
            print(table.buttons_seen(current), end="")
            continue
        runner.run(stop.bounded(table.run_line(line, current)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.local", description=__doc__.split("\n\n")[0])
    parser.add_argument("--script", help="read lines from FILE instead of the terminal")
    parser.add_argument("--out", help="write images to DIR (default ./out when interactive)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", help=f"SQLite file to keep the games in (default: {DEFAULT_DB}; scripts: in memory)")
    where.add_argument("--memory", action="store_true", help="a throwaway table: keep nothing")
    parser.add_argument("--lang", default="en", help="the server's language: en, de or fr")
    parser.add_argument("--no-env", action="store_true", help="do not read .env")
    parser.add_argument("--json", action="store_true", help="interactive, but print JSON lines like --script")
    args = parser.parse_args(argv)
    _setup_logging()
    lines: list[str] = []
    if args.script:
        try:
            lines = Path(args.script).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            # only an OSError has strerror; a decoding error explains itself
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            print(f"python -m bot.local: cannot read the script {args.script}: {reason}",
                  file=sys.stderr)
            return 2
    db = ":memory:" if args.memory or (args.script and not args.db) else (args.db or DEFAULT_DB)
    with StopRequest() as stop, asyncio.Runner() as runner:
        try:
            table = runner.run(_open_table(args, db))
        except SettingsError as exc:  # e.g. a SHARD_IDS beyond SHARD_COUNT in .env: say which
            print(f"python -m bot.local: {exc}", file=sys.stderr)
            return 2
        except (OSError, sqlite3.Error) as exc:
            print(f"python -m bot.local: cannot open the database {db}: {exc}", file=sys.stderr)
            return 2
        try:
            if args.script:
                runner.run(stop.bounded(_run_script(table, lines, stop)))
                return 0
            return _interactive(runner, table, db, stop)
        except (Stopped, asyncio.CancelledError):  # SIGTERM or SIGINT (Ctrl-C): a clean stop, status 0
            print("\nStopped." + (f" The games are kept in {db}." if db != ":memory:" else ""), file=sys.stderr)
            return 0
        finally:
            if table.service.render_pool is not None:
                runner.run(table.service.render_pool.close())
            runner.run(table.service.store.close())


if __name__ == "__main__":
    raise SystemExit(main())
