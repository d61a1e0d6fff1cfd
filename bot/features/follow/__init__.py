"""Following a game without playing: `/game follow [thread]` (or **Follow** on the lobby)
sends a copy of each public turn message — the same text and board image, nothing
else — to the follower's DMs or to a thread they picked; `/game unfollow` stops it.

Follows are stored, so they survive restarts, and end with the game: the final board
is the last copy. A copy never carries buttons or pings, and it is made from the public
channel message as published, after every other step, so it holds exactly what the
channel shows."""

from __future__ import annotations

import logging

from bot import games
from bot.i18n import Translator
from bot.replies import Button, Reply, ThreadTarget, User, Where
from bot.store import Follow, GameRecord
from bot.table.change import Change, Published
from bot.table.hooks import Hooks
from bot.table.ids import Press, custom_id
from bot.table.messages import Messages
from bot.table.play import game_channel
from bot.table.shared import RateLimiter, Refusal
from bot.table.tables import Tables
from bot.table.talk import Talk
from bot.text import clean

log = logging.getLogger("passepartout.service")

#: followers of one game at most (each turn is sent once more per follower)
MAX_FOLLOWERS = 25
#: follow/unfollow per user at most this often (they write to the store and send a board)
FOLLOW_LIMIT, FOLLOW_WINDOW = 4, 60.0
#: how long this process has to send an owed copy it took (another process may take it after)
OWED_CLAIM_SECONDS = 60.0


def follower_copy(public: Reply, follow: Follow) -> Reply:
    """A follower's copy of the public turn message: its text and files as they are, no
    buttons, nobody pinged."""
    return Reply("thread" if follow.thread_id is not None else "dm", public.text, user_id=follow.user_id,
                 channel_id=follow.thread_id, files=list(public.files), follow=follow.game_pk,
                 announces=public.announces)


class Following:
    def __init__(self, tables: Tables, talk: Talk, messages: Messages) -> None:
        self.tables = tables
        self.talk = talk
        self.messages = messages
        self.asks = RateLimiter(FOLLOW_LIMIT, FOLLOW_WINDOW)

    def install(self, hooks: Hooks) -> None:
        hooks.component("follow", self.press)
        hooks.lobby_buttons.append(self.lobby_button)

    async def follow(self, user: User, where: Where, thread: ThreadTarget | None = None) -> list[Reply]:
        """Follow the channel's game (lobby or running) by DM, or in `thread`."""
        if thread is not None and (thread.guild_id is None or thread.guild_id != where.guild_id):
            raise Refusal("follow.thread_elsewhere")
        if thread is not None and not thread.user_can_view:
            raise Refusal("follow.thread_hidden")
        if thread is not None and not thread.can_post:
            raise Refusal("follow.thread_closed")
        if self.asks.too_often(user.id):
            raise Refusal("error.slow_down")
        store = self.tables.store
        record = await store.active_game(where.channel_id)
        if record is None:
            raise Refusal("error.no_game")
        follow = Follow(record.id, user.id, clean(user.name), thread.id if thread else None)
        async with self.tables.lock(where.channel_id):
            if not await store.set_follow(follow, limit=MAX_FOLLOWERS):
                raise Refusal("follow.full", max=MAX_FOLLOWERS)
        spec = games.get(record.game_id)
        t = self.talk.user_t(user, spec.ui)
        channel = f"<#{record.channel_id}>"
        if thread is None:
            said = t("follow.started_dm", title=t("title"), channel=channel)
        else:
            said = t("follow.started_thread", title=t("title"), channel=channel, thread=f"<#{thread.id}>")
        replies = [self.talk.done(user, "✅ " + said)]
        # the first copy at once: the board now, or word that copies come once the game starts
        target_t = self.talk.game_t(record, spec.ui) if thread is not None else t
        hello = target_t("follow.hello", title=target_t("title"), channel=channel)
        replies.append(follower_copy(Reply("channel", hello), follow))
        if record.status == "running":
            loaded = self.tables.load(record)
            board = await self.messages.board(loaded, self.talk.game_t(record, loaded.ui), [], asked=True)
            replies.append(follower_copy(board, follow))
        return replies

    async def unfollow(self, user: User, where: Where) -> list[Reply]:
        if self.asks.too_often(user.id):
            raise Refusal("error.slow_down")
        store = self.tables.store
        record = await store.active_game(where.channel_id)
        if record is None or not await store.remove_follow(record.id, user.id):
            raise Refusal("follow.not_following")
        t = self.talk.user_t(user, games.get(record.game_id).ui)
        return [self.talk.done(user, "✅ " + t("follow.stopped", title=t("title")))]

    async def drop(self, game_pk: int, user_id: int) -> None:
        """A copy could not be delivered (DMs closed, thread gone): that follow ends."""
        await self.tables.store.remove_follow(game_pk, user_id)

    # -- the follower's copies -------------------------------------------------------
    async def copies(self, change: Change, out: Published) -> Published:
        """The after-change step, last: a copy of the channel's message as published. The last
        copy goes to the follows this process ended (a tick in another process may end them
        first, and then it alone sends the final board)."""
        loaded = change.loaded
        store = self.tables.store
        over = loaded.rules.is_over(loaded.state)
        follows = await (store.end_follows if over else store.follows)(loaded.record.id)
        if not follows or out.board is None:
            return out
        board = out.board
        return out.with_(copies=out.copies + tuple(follower_copy(board, f) for f in follows))

    async def owed(self) -> list[Reply]:
        """The tick job that sends followers the copy they are owed: the channel got a newer
        version than they did (their copy failed, or the process stopped before sending it).
        The copy is of the game as it is now, once."""
        store, now = self.tables.store, self.tables.clock()
        replies: list[Reply] = []
        for follow, _tries in await store.owed_copies(now, until=now + OWED_CLAIM_SECONDS):
            record = await store.get_game(follow.game_pk)
            if record is None or record.state is None or record.game_id not in games.specs():
                continue
            loaded = self.tables.load(record)
            t = self.talk.game_t(record, loaded.ui)
            board = await self.messages.board(loaded, t, [], note=t("announce.again"))
            replies.append(follower_copy(board, follow))
        return replies

    async def farewells(self) -> list[Reply]:
        """The tick job that ends the follows of games that ended without telling their
        followers (a crash after the last move, or a cancelled table): the final board, or a note."""
        replies: list[Reply] = []
        for record in await self.tables.store.ended_followed_games():
            try:
                async with self.tables.lock(record.channel_id):
                    replies += await self._farewell(record)
            except Exception:
                log.exception("scheduler: the followers of game %s failed", record.id)
        return replies

    async def _farewell(self, record: GameRecord) -> list[Reply]:
        follows = await self.tables.store.end_follows(record.id)  # once, whichever process gets here first
        if not follows:
            return []
        loaded = self.tables.load(record)
        t = self.talk.game_t(record, loaded.ui)
        if record.status == "finished" and loaded.state is not None and loaded.rules.is_over(loaded.state):
            last = await self.messages.board(loaded, t, [])
        else:
            last = Reply("channel", t("follow.ended", title=t("title"), channel=f"<#{record.channel_id}>"))
        return [follower_copy(last, f) for f in follows]

    # -- the lobby's Follow button ------------------------------------------------------
    @staticmethod
    def lobby_button(record: GameRecord, t: Translator) -> Button:
        return Button(t("button.follow"), custom_id(record.id, record.version, "follow"), "secondary", "📺")

    async def press(self, user: User, where: Where, press: Press) -> list[Reply]:
        record = await self.tables.store.get_game(press.game_pk)
        if record is None or not record.active:
            raise Refusal("error.stale_game")
        return await self.follow(user, game_channel(record, Where(channel_id=record.channel_id,
                                                                    guild_id=record.guild_id,
                                                                    guild_locale=where.guild_locale)))
