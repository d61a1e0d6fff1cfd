"""The adapters: the front ends that feed the table service (`bot.service.TableService`).

- `bot.adapters.discord`: the Discord bot (app commands and components in, messages out);
- `bot.adapters.local`: the local table, a terminal and script front end that needs no Discord;
- `bot.adapters.admin`: the administration commands (`python -m bot.admin`).

Both front ends build the `/game` subcommands from `bot.commands` (declared once, as data,
beside the service whose methods they name).

No behaviour lives here: an adapter turns its input into a service call and the service's
`Reply` values into output.
"""
