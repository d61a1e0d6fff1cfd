"""Following a game without playing: `/game follow [thread]` (or **Follow** on the lobby)
sends a copy of each public turn message — the same text and board image, nothing
else — to the follower's DMs or to a thread they picked; `/game unfollow` stops it.

Follows are stored, so they survive restarts, and end with the game: the final board
is the last copy. A copy never carries buttons or pings, and it is made from the public
channel message itself, so it cannot hold anything the channel does not show."""

from __future__ import annotations

import logging
from typing import Any

from bot import games
from bot.replies import Button, Reply, ThreadTarget, User, Where
from bot.store import GameRecord
from bot.store_social import Follow
from bot.table.base import refusing
from bot.table.ids import custom_id, parse_custom_id
from bot.table.ratings import Limiter, RatingsMixin
from bot.table.shared import Loaded, Refusal
from bot.text import clean

log = logging.getLogger("passepartout.service")

#: followers of one game at most (each turn is sent once more per follower)
MAX_FOLLOWERS = 25
#: follow/unfollow per user at most this often (they write to the store and send a board)
FOLLOW_LIMIT, FOLLOW_WINDOW = 4, 60.0


def follower_copy(public: Reply, follow: Follow) -> Reply:
    """A follower's copy of the public turn message: its text and files as they are, no
    buttons, nobody pinged."""
    return Reply("thread" if follow.thread_id is not None else "dm", public.text, user_id=follow.user_id,
                 channel_id=follow.thread_id, files=list(public.files), follow=follow.game_pk)


class FollowMixin(RatingsMixin):
    """Followers of a game: who they are, and their copies of each turn."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._follow_asked = Limiter(FOLLOW_LIMIT, FOLLOW_WINDOW)

    @refusing
    async def follow(self, user: User, where: Where, thread: ThreadTarget | None = None) -> list[Reply]:
        """Follow the channel's game (lobby or running) by DM, or in `thread`."""
        if thread is not None and (thread.guild_id is None or thread.guild_id != where.guild_id):
            raise Refusal("follow.thread_elsewhere")
        if thread is not None and not thread.can_post:
            raise Refusal("follow.thread_closed")
        if self._follow_asked.too_often(user.id):
            raise Refusal("error.slow_down")
        record = await self.store.active_game(where.channel_id)
        if record is None:
            raise Refusal("error.no_game")
        follow = Follow(record.id, user.id, clean(user.name), thread.id if thread else None)
        async with self._lock(where.channel_id):
            if not await self.store.set_follow(follow, limit=MAX_FOLLOWERS):
                raise Refusal("follow.full", max=MAX_FOLLOWERS)
        spec = games.get(record.game_id)
        t = self.user_t(user, spec.ui)
        channel = f"<#{record.channel_id}>"
        if thread is None:
            said = t("follow.started_dm", title=t("title"), channel=channel)
        else:
            said = t("follow.started_thread", title=t("title"), channel=channel, thread=f"<#{thread.id}>")
        replies = [self.private(user, "✅ " + said)]
        # the first copy at once: the board now, or word that copies come once the game starts
        target_t = self.game_t(record, spec.ui) if thread is not None else t
        hello = target_t("follow.hello", title=target_t("title"), channel=channel)
        replies.append(follower_copy(Reply("channel", hello), follow))
        if record.status == "running":
            loaded = self._load(record)
            board = await self._board_reply(loaded, self.game_t(record, loaded.ui), [], asked=True)
            replies.append(follower_copy(board, follow))
        return replies

    @refusing
    async def unfollow(self, user: User, where: Where) -> list[Reply]:
        if self._follow_asked.too_often(user.id):
            raise Refusal("error.slow_down")
        record = await self.store.active_game(where.channel_id)
        if record is None or not await self.store.remove_follow(record.id, user.id):
            raise Refusal("follow.not_following")
        t = self.user_t(user, games.get(record.game_id).ui)
        return [self.private(user, "✅ " + t("follow.stopped", title=t("title")))]

    async def drop_follow(self, game_pk: int, user_id: int) -> None:
        """A copy could not be delivered (DMs closed, thread gone): that follow ends."""
        await self.store.remove_follow(game_pk, user_id)

    # -- the follower's copies -------------------------------------------------------
    async def _after_change(self, loaded: Loaded, events: list[dict[str, Any]], *,
                            note: str | None = None, already_pinged: set[str] | None = None) -> list[Reply]:
        replies = await super()._after_change(loaded, events, note=note, already_pinged=already_pinged)
        # the last copy goes to the follows this process ended: a tick in another process may
        # end them first, and then it alone sends the final board
        over = loaded.rules.is_over(loaded.state)
        follows = await (self.store.end_follows if over else self.store.follows)(loaded.record.id)
        public = next((r for r in replies if r.to == "channel"), None)
        if follows and public is not None:
            replies += [follower_copy(public, f) for f in follows]
        return replies

    async def tick(self) -> list[Reply]:
        """Also ends the follows of games that ended without telling their followers (a
        crash after the last move, or a cancelled table): the final board, or a note."""
        replies = await super().tick()
        for record in await self.store.ended_followed_games():
            try:
                async with self._lock(record.channel_id):
                    replies += await self._farewell(record)
            except Exception:
                log.exception("scheduler: the followers of game %s failed", record.id)
        return replies

    async def _farewell(self, record: GameRecord) -> list[Reply]:
        follows = await self.store.end_follows(record.id)  # once, whichever process gets here first
        if not follows:
            return []
        loaded = self._load(record)
        t = self.game_t(record, loaded.ui)
        if record.status == "finished" and loaded.state is not None and loaded.rules.is_over(loaded.state):
            last = await self._board_reply(loaded, t, [])
        else:
            last = Reply("channel", t("follow.ended", title=t("title"), channel=f"<#{record.channel_id}>"))
        return [follower_copy(last, f) for f in follows]

    # -- the lobby's Follow button ------------------------------------------------------
    def _lobby_message(self, record: GameRecord, note: str | None = None) -> Reply:
        reply = super()._lobby_message(record, note)
        t = self.game_t(record, games.get(record.game_id).ui)
        follow = Button(t("button.follow"), custom_id(record.id, record.version, "follow"), "secondary", "📺")
        if reply.rows and len(reply.rows[0]) < 5:
            reply.rows[0].append(follow)
        else:
            reply.rows.append([follow])
        return reply

    async def component(self, user: User, where: Where, value: str, values: list[str] | None = None) -> list[Reply]:
        parsed = parse_custom_id(value)
        if parsed is None or parsed[2] != "follow":
            return await super().component(user, where, value, values)
        record = await self.store.get_game(parsed[0])
        if record is None or not record.active:
            return self.refuse(user, "error.stale_game")
        return await self.follow(user, Where(channel_id=record.channel_id, guild_id=record.guild_id,
                                             guild_locale=where.guild_locale))
