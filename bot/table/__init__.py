"""The table service, split by job. `bot.service.TableService` composes the parts:

- `shared`: limits, `Refusal`, option parsing, `Loaded`, text helpers
- `ids`: custom ids of buttons and selects, and parsing them back
- `base`: `TableBase` — store, locks, translators, loading games, the refusal mechanism
- `messages`: what the table says — turn/board/hand replies, buttons, event lines,
  mentions, results, status/hand/log/rules answers
- `ai`: AI seats and stand-ins, played through each game's `GameSpec.ai`
- `lobby`: new/join/leave/addbot/start/cancel and settings
- `play`: game commands, buttons, menus, autocomplete, acting, resigning
- `scheduler`: reminders, timeouts, crash recovery, idle lobbies
- `undo`: taking back one's last move(s) (`/game undo`, the Undo button)
- `rematch`: the Rematch button of a finished game, invitations and their deadline

- `ratings`: rating finished games once per server (openskill), `/game stats`, `/game leaderboard`
- `follow`: followers' copies of each public turn message, `/game follow`, `/game unfollow`

Each part is a class built on the ones it needs (base <- messages <- ai <- lobby <- play
<- scheduler <- undo <- rematch <- ratings <- follow), so every call between parts is an ordinary, checked method call.
"""
