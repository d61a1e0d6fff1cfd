"""The adapters: the front ends that feed the table service (`bot.service.TableService`).

- `bot.adapters.discord`: the Discord bot (app commands and components in, messages out);
- `bot.adapters.local`: the local table, a terminal and script front end that needs no Discord;
- `bot.adapters.admin`: the administration commands (`python -m bot.admin`);
- `bot.adapters.commands`: the `/game` subcommands declared once, which the Discord adapter
  and the local table both build from.

No behaviour lives here: an adapter turns its input into a service call and the service's
`Reply` values into output.
"""
