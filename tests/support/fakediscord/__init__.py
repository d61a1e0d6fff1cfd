"""A local Discord-compatible server for tests that run the real bot process (`python -m bot`):
REST routes and the gateway websocket on 127.0.0.1, every request recorded, faults injected per
route, and the bot process started, signalled and restarted by the test. The fixtures in
tests/adapters/conftest.py (`fake_discord`, `bot_process`, `running_bot`, `discord_rest`) do
the starting and stopping; every wait below takes a timeout.

Starting
    fd = FakeDiscord(); await fd.start()            # FakeDiscord(guild=Guild.default(), shard_count=1,
                                                    #   interaction_deadline=3.0)
    bot = BotProcess(fd, tmp_path, env={...})       # database tmp_path/bot.sqlite3; env adds settings
    await bot.started()                             # = start() + wait_ready(): READY and GUILD_CREATE
                                                    #   processed (commands were synced before that)
Interactions (payloads built from the commands the bot synced, permissions from the guild model)
    p = fd.slash(ALICE, "game new", game="detour")  # also fd.autocomplete(user, path, focused, current,
    mark = await fd.interact(p)                     #   **values), fd.click(user, sent, custom_id),
                                                    #   fd.choose(user, sent, custom_id, values)
What the bot did (the in-process harness's `Sent`/`Request`/`Callback` shapes and queries)
    await fd.wait_channel_message(match, since=mark, channel_id=CHANNEL_ID)  -> Sent
    await fd.wait_acked(p); await fd.wait_for(check, timeout, what); await fd.quiet(0.5)
    fd.channel_messages(since), fd.ephemeral_for(user, since), fd.dms_for(user, since),
    fd.followups(since), fd.callbacks_for(p), fd.synced(), fd.protocol_problems(),
    fd.calls(method, path_regex, since) -> [Call] with .status, .response, .fault, .at, .files
    (Upload: filename, data, description), fd.messages (as stored), fd.limit_violations
Faults
    rule = fd.inject("POST", r"/channels/\\d+/messages", Fault.error(503), Fault.rate_limited(1.5),
                     then=None)                     # queue per route; rule.count, rule.served,
    Fault.error(status, code, message), .missing_permissions(), .missing_access(),
    .unknown_channel(), .rate_limited(retry_after, is_global=, cloudflare=),
    .hang(seconds | None, processed=)  (rule.release()), .drop(processed=), .reset(processed=)
    # processed=True: Discord did it (the message shows in the channel), only the answer is lost
Guild and gateway
    await fd.set_overwrite(channel_id, BOT_ROLE_ID, deny=SEND_MESSAGES); await fd.set_bot_permissions(p)
    await fd.delete_channel(CHANNEL_ID | THREAD_ID); await fd.remove_guild(unavailable=False)
    await fd.gateway.dispatch(name, data, guild_id=...); await fd.gateway.sync()  # the bot parsed it
    await fd.gateway.drop(4000 | None, reset=False); await fd.gateway.request_reconnect()
    await fd.gateway.invalidate(resumable); fd.gateway.resumable / ack_heartbeats / heartbeat_interval
    fd.gateway.frames, fd.gateway.received(op, since_conn), await fd.wait_ready(after_connection)
The process
    bot.terminate() (SIGTERM), bot.kill() (SIGKILL), await bot.wait_exit(timeout) -> status,
    await bot.stop(), bot.log(run), bot.tail(), bot.wal_files(), bot.running, bot.runs
"""

from tests.support.fakediscord.faults import Fault, FaultRule
from tests.support.fakediscord.gateway import Gateway
from tests.support.fakediscord.model import BOT_ROLE_ID, THREAD_ID, Channel, Guild, Overwrite
from tests.support.fakediscord.process import BotDied, BotProcess
from tests.support.fakediscord.rest import Call
from tests.support.fakediscord.server import FakeDiscord

__all__ = ["BOT_ROLE_ID", "THREAD_ID", "BotDied", "BotProcess", "Call", "Channel", "FakeDiscord", "Fault",
           "FaultRule", "Gateway", "Guild", "Overwrite"]
