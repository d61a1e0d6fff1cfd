"""The one place the table service is put together: its parts with their collaborators,
the features installing their hooks, and — in order — the steps every change goes through
and the scheduler's tick jobs. A new feature is a plain object and a few lines here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.ai.pool import AIPool
from bot.features.follow import Following
from bot.features.hints import Hints
from bot.features.memories import Memories
from bot.features.ratings import Ratings
from bot.features.rematch import Rematch
from bot.features.undo import Undo
from bot.images.pool import RenderPool
from bot.settings import Settings
from bot.store import Store
from bot.table.announce import Announcements
from bot.table.answers import Answers
from bot.table.hooks import Hooks
from bot.table.images import Images
from bot.table.lobby import Lobby
from bot.table.messages import Messages
from bot.table.play import Play
from bot.table.publish import Publisher
from bot.table.scheduler import Scheduler
from bot.table.tables import Tables
from bot.table.talk import Talk
from bot.table.turns import Turns


@dataclass(frozen=True)
class Parts:
    hooks: Hooks
    tables: Tables
    talk: Talk
    images: Images
    messages: Messages
    answers: Answers
    publisher: Publisher
    turns: Turns
    lobby: Lobby
    play: Play
    scheduler: Scheduler
    announcements: Announcements
    undo: Undo
    rematch: Rematch
    ratings: Ratings
    following: Following
    memories: Memories
    hints: Hints


def build(store: Store, settings: Settings, clock: Callable[[], float], *,
          render_in_thread: bool = True, render_pool: RenderPool | None = None,
          ai_pool: AIPool | None = None) -> Parts:
    hooks = Hooks()
    tables = Tables(store, settings, clock, hooks)
    talk = Talk()
    images = Images(render_in_thread=render_in_thread, render_pool=render_pool)
    messages = Messages(talk, images, hooks)
    answers = Answers(tables, talk, messages)
    publisher = Publisher(hooks)
    ai = ai_pool or AIPool(0, turn_seconds=settings.ai_turn_seconds, hard_seconds=settings.ai_hard_seconds)
    turns = Turns(tables, talk, publisher, ai)
    lobby = Lobby(tables, talk, messages, turns, hooks)
    play = Play(tables, talk, messages, turns, lobby, answers, hooks)
    scheduler = Scheduler(tables, talk, messages, turns, hooks)
    announcements = Announcements(tables, talk, messages)

    undo = Undo(tables, talk, turns, publisher)
    rematch = Rematch(tables, talk, messages, lobby)
    ratings = Ratings(tables, talk)
    following = Following(tables, talk, messages)
    memories = Memories(tables, talk, images)
    hints = Hints(tables, talk, ai)
    for feature in (undo, rematch, following, hints):
        feature.install(hooks)

    # every change to a game, in this order: the confirmation's Undo offer, the confirmation
    # itself at once (when the adapter takes it early), the turn message and DMs, the pictures
    # of a game that ended, its rating, then followers' copies of the channel message exactly
    # as published
    hooks.step("undo offer", undo.offer)
    hooks.step("confirmation first", publisher.ack_first)
    hooks.step("turn message", messages.turn_message)
    hooks.step("memories due", memories.due)
    hooks.step("rating", ratings.rate_finished)
    hooks.step("follower copies", following.copies)

    # the scheduler's tick, in this order
    hooks.tick("rematch invitations", rematch.invitations_over)
    hooks.tick("due games", scheduler.due_games)
    hooks.tick("owed messages", announcements.owed)
    hooks.tick("games paused too long", announcements.paused_too_long)
    hooks.tick("idle lobbies", scheduler.idle_lobbies)
    hooks.tick("memories recovery", memories.recover)
    hooks.tick("ratings of unrated games", ratings.rate_unrated)
    hooks.tick("followers' owed copies", following.owed)
    hooks.tick("followers' farewells", following.farewells)

    return Parts(hooks, tables, talk, images, messages, answers, publisher, turns, lobby, play, scheduler,
                 announcements, undo, rematch, ratings, following, memories, hints)
