"""The table service's parts, each with the collaborators it is given (put together in
`bot.wiring`; `bot.service.TableService` is the facade over them):

- `tables`: the games of the channels — loading, one lock per channel, lobby saves, deadlines
- `talk`: translators, private replies and refusals
- `images`: boards and hands drawn off the event loop (render pool or thread), a small cache
- `messages`: the lobby and board messages, a hand, event lines, mentions, results
- `answers`: what someone asks to see — status, hand, log, rules, the list of games
- `turns`: moves, AI seats and stand-ins, each committed and published as a `Change`
- `publish`: `Publisher.publish(change)`, the after-change steps in order
- `lobby`, `play`, `scheduler`: the commands of a lobby, of a running game, and the tick
- `hooks`: the registry features plug into (`bot/features/`)
- `change`, `ids`, `shared`: the values they pass around
"""
