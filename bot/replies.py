"""What the table service answers: plain data that both adapters turn into output.

The Discord adapter turns these into messages, ephemeral replies, DMs, buttons and
selects; the local table prints them as JSON lines. Keeping them as data is what
lets the tests check exactly what a Discord user would get.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

#: "thread": a thread someone follows a game in (`channel_id`), outside the game's channel
Destination = Literal["channel", "ephemeral", "dm", "thread"]
ButtonStyle = Literal["primary", "secondary", "success", "danger"]
#: what a reply says about the request: it was done, it was refused (nothing changed), or it
#: only shows something
Outcome = Literal["ok", "refused", "info"]


@dataclass(frozen=True)
class User:
    id: int
    name: str
    locale: str | None = None  # the user's Discord locale, for ephemeral replies


@dataclass(frozen=True)
class Where:
    channel_id: int
    guild_id: int | None = None
    guild_locale: str | None = None
    can_manage: bool = False  # the user has Manage Channels here
    #: permissions the bot lacks in this channel to post a game there (e.g. "send_messages"),
    #: as the adapter read them from the interaction; a game is not written while any is missing
    missing_permissions: tuple[str, ...] = ()


@dataclass(frozen=True)
class ThreadTarget:
    """A thread someone picked to follow a game in, as the adapter saw it: its server,
    whether the bot may post there, and whether the person who picked it can see it (Discord
    sends their permissions in it with the pick); the service refuses a thread that fails either."""

    id: int
    guild_id: int | None
    name: str
    can_post: bool = True
    user_can_view: bool = True


@dataclass(frozen=True)
class Button:
    label: str
    custom_id: str
    style: ButtonStyle = "secondary"
    emoji: str | None = None
    disabled: bool = False


@dataclass(frozen=True)
class SelectOption:
    label: str
    value: str
    description: str | None = None


@dataclass(frozen=True)
class Select:
    custom_id: str
    placeholder: str
    options: tuple[SelectOption, ...]


Component = Button | Select


@dataclass(frozen=True)
class Embed:
    """A card of text (Discord embed): for texts longer than a message, e.g. the rules.
    Limits (Discord): title 256, description 4096, all embeds of a message 6000 together."""

    description: str
    title: str | None = None


#: Discord's limits for embeds, used to split long texts
EMBED_DESCRIPTION_LIMIT = 4096
EMBEDS_TOTAL_LIMIT = 6000
EMBEDS_PER_MESSAGE = 10


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes
    #: alt text for screen readers, in the game's language
    description: str | None = None


@dataclass(frozen=True)
class Announcement:
    """A game's message to its channel at one version of the game."""

    game_pk: int
    version: int


@dataclass(frozen=True)
class Reply:
    """One message. `user_id` is the recipient of an ephemeral reply or DM; `mentions`
    are the users a channel message pings (nobody else is pinged). `follow`: this is a
    follower's copy of the game with that id, for `user_id` by DM or in the thread
    `channel_id`; when it cannot be delivered the adapter ends that follow.

    `outcome` says whether the request was done, refused (then `refusal` is the message
    key and nothing was written) or only answered; a step that decorates a reply makes a
    new one (`dataclasses.replace`)."""

    to: Destination
    text: str
    user_id: int | None = None
    channel_id: int | None = None
    files: list[Attachment] = field(default_factory=list)
    rows: list[list[Component]] = field(default_factory=list)
    mentions: list[int] = field(default_factory=list)
    embeds: list[Embed] = field(default_factory=list)
    follow: int | None = None
    outcome: Outcome = "info"
    refusal: str | None = None
    #: this channel message is what the game owes its channel at that version: the adapter
    #: reports whether Discord accepted it (`TableService.delivered` / `undelivered`)
    announces: Announcement | None = None
    #: this private reply's buttons work only while the game is at that version (an Undo):
    #: the adapter takes them away once the game's channel shows a later one
    buttons_until: Announcement | None = None

    def as_json(self, image_paths: list[str] | None = None) -> dict[str, object]:
        """The local table's line format."""
        out: dict[str, object] = {"to": self.to, "user": self.user_id, "text": self.text,
                                  "files": image_paths if image_paths is not None else [f.filename for f in self.files]}
        if self.follow is not None:
            out["follower"] = self.user_id
        if self.to == "thread":
            out["thread"] = self.channel_id
        if self.embeds:
            out["embeds"] = [{"title": e.title, "description": e.description} for e in self.embeds]
        buttons = [c for row in self.rows for c in row]
        if buttons:
            out["components"] = [
                {"label": c.label, "id": c.custom_id} if isinstance(c, Button)
                else {"select": c.placeholder, "id": c.custom_id, "options": [o.label for o in c.options]}
                for c in buttons
            ]
        return out
