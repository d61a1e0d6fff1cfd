"""A local Discord-compatible server for tests that run the real bot process (`python -m bot`):
REST routes and the gateway websocket on 127.0.0.1, every request recorded, faults injected per
route, and the bot process started, signalled and restarted by the test.

    fd = FakeDiscord(); await fd.start()
    bot = await BotProcess(fd, tmp_path).started()
    await fd.interact(fd.slash(ALICE, "game new", game="detour"))
    lobby = await fd.wait_channel_message(lambda m: bool(m.buttons))

The fixtures in tests/adapters/conftest.py do the starting and stopping.
"""

from tests.support.fakediscord.faults import Fault, FaultRule
from tests.support.fakediscord.gateway import Gateway
from tests.support.fakediscord.model import BOT_ROLE_ID, THREAD_ID, Channel, Guild, Overwrite
from tests.support.fakediscord.process import BotDied, BotProcess
from tests.support.fakediscord.rest import Call
from tests.support.fakediscord.server import FakeDiscord

__all__ = ["BOT_ROLE_ID", "THREAD_ID", "BotDied", "BotProcess", "Call", "Channel", "FakeDiscord", "Fault",
           "FaultRule", "Gateway", "Guild", "Overwrite"]
