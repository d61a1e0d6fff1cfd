"""Driving a table of detour through the fake Discord as players would: slash commands to set
up, then the buttons the bot posted (shared by the real-process tests)."""

from __future__ import annotations

from functools import partial

from tests.support.discord_harness import ALICE, BOB, CAROL, MENTION, FakeUser, Sent, kind_of
from tests.support.fakediscord.server import FakeDiscord


async def press(fd: FakeDiscord, user: FakeUser, message: Sent, label: str) -> int:
    """`user` presses the button labelled `label` on `message`; returns the mark before it."""
    return await fd.interact(fd.click(user, message, message.button(label).custom_id))  # type: ignore[arg-type]


async def open_detour(fd: FakeDiscord, followers: tuple[FakeUser, ...] = ()) -> Sent:
    """`/game new game:detour` by Alice (`followers` then `/game follow` it by DM), Bob and
    Carol join with the lobby's button, Alice presses Start: returns the first turn message
    (the one with the board)."""
    mark = await fd.interact(fd.slash(ALICE, "game new", game="detour"))
    lobby = await fd.wait_channel_message(lambda m: bool(m.buttons), since=mark)
    for follower in followers:
        mark = await fd.interact(fd.slash(follower, "game follow"))
        await fd.wait_for(partial(fd.dms_for, follower, mark), what=f"{follower.name}'s follow DM")
    for user in (BOB, CAROL):
        mark = await press(fd, user, lobby, "Join")
        lobby = await fd.wait_channel_message(partial(names, user), since=mark)
    mark = await press(fd, ALICE, lobby, "Start")
    return await fd.wait_channel_message(lambda m: bool(m.files), since=mark)


def names(user: FakeUser, message: Sent) -> bool:
    return f"**{user.name}**" in message.content


def pinged(message: Sent) -> set[int]:
    """Who the message pings: named as <@id> and allowed by its allowed_mentions."""
    allowed = {int(u) for u in (message.allowed_mentions or {}).get("users") or []}
    return {int(u) for u in MENTION.findall(message.content)} & allowed


def version_of(message: Sent) -> int:
    """The game version its buttons carry (pp:<game>:<version>:…)."""
    return {int((b.custom_id or "").split(":")[2]) for b in message.buttons if kind_of(b.custom_id)}.pop()


async def play_card(fd: FakeDiscord, user: FakeUser, turn: Sent) -> Sent:
    """`user` presses the first "Play …" button of `turn`; returns the next public message."""
    label = next(b.label for b in turn.buttons if b.label and b.label.startswith("Play "))
    mark = await press(fd, user, turn, label)
    confirmation = await fd.wait_for(lambda: fd.ephemeral_for(user, mark), what=f"{user.name}'s confirmation")
    assert confirmation[0].content.startswith("✅"), confirmation[0]
    return await fd.wait_channel_message(since=mark)
