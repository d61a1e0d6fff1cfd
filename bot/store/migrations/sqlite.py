"""The SQLite schema: numbered migrations, applied in order at open (`PRAGMA user_version`
counts those applied). `bot.store.migrations.postgres` says the same in PostgreSQL's words."""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: games, seats, the action log
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY,
        channel_id  INTEGER NOT NULL,
        guild_id    INTEGER,
        game_id     TEXT    NOT NULL,
        status      TEXT    NOT NULL CHECK (status IN ('lobby','running','finished','cancelled')),
        version     INTEGER NOT NULL DEFAULT 0,
        state       TEXT,
        options     TEXT    NOT NULL DEFAULT '{}',
        settings    TEXT    NOT NULL DEFAULT '{}',
        seed        INTEGER NOT NULL,
        host_id     INTEGER NOT NULL,
        created_at  REAL    NOT NULL,
        updated_at  REAL    NOT NULL,
        remind_at   REAL,
        timeout_at  REAL
    );
    CREATE UNIQUE INDEX games_one_active_per_channel ON games(channel_id) WHERE status IN ('lobby','running');
    CREATE INDEX games_deadlines ON games(status, remind_at, timeout_at);
    CREATE TABLE seats (
        game      INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        position  INTEGER NOT NULL,
        seat      TEXT,
        user_id   INTEGER NOT NULL,
        name      TEXT    NOT NULL,
        is_bot    INTEGER NOT NULL DEFAULT 0,
        dm        INTEGER NOT NULL DEFAULT 0,
        lang      TEXT,
        PRIMARY KEY (game, position)
    );
    CREATE TABLE actions (
        game    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq     INTEGER NOT NULL,
        seat    TEXT    NOT NULL,
        action  TEXT    NOT NULL,
        events  TEXT    NOT NULL,
        actor   TEXT    NOT NULL DEFAULT 'human',
        at      REAL    NOT NULL,
        PRIMARY KEY (game, seq)
    );
    """,
    # 2: per-user preferences (DM opt-in carried to new games)
    """
    CREATE TABLE user_prefs (
        user_id INTEGER PRIMARY KEY,
        dm      INTEGER NOT NULL DEFAULT 0
    );
    """,
    # 3: small key/value facts about the deployment (e.g. the synced command fingerprint)
    """
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 4: a marker for games whose AI must move (crash recovery), and indexes so the
    # scheduler and the per-channel lookups never scan every game. Running games from
    # before get the marker once, so the first tick checks each of them.
    """
    ALTER TABLE games ADD COLUMN ai_pending INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET ai_pending=1 WHERE status='running';
    DROP INDEX games_deadlines;
    CREATE INDEX games_remind_due ON games(remind_at) WHERE status='running' AND remind_at IS NOT NULL;
    CREATE INDEX games_timeout_due ON games(timeout_at) WHERE status='running' AND timeout_at IS NOT NULL;
    CREATE INDEX games_ai_due ON games(id) WHERE status='running' AND ai_pending=1;
    CREATE INDEX games_by_channel ON games(channel_id, id);
    CREATE INDEX games_idle_lobbies ON games(timeout_at) WHERE status='lobby' AND timeout_at IS NOT NULL;
    CREATE INDEX actions_by_seat ON actions(game, seat);
    """,
    # 5: the scheduler's lease on a due game (several bot processes share one database:
    # each due reminder, timeout and AI resumption is handled by the one holding the lease)
    """
    ALTER TABLE games ADD COLUMN lease_owner TEXT;
    ALTER TABLE games ADD COLUMN lease_until REAL;
    """,
    # 6: ratings per server and game, each finished game's placings (recorded once: the key
    # is the game), and followers who get a copy of each public turn message
    """
    CREATE TABLE game_results (
        game         INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        scope        TEXT    NOT NULL,
        game_id      TEXT    NOT NULL,
        players      INTEGER NOT NULL,
        finished_at  REAL    NOT NULL
    );
    CREATE TABLE result_seats (
        game    INTEGER NOT NULL REFERENCES game_results(game) ON DELETE CASCADE,
        seat    TEXT    NOT NULL,
        player  TEXT    NOT NULL,
        name    TEXT    NOT NULL,
        rank    INTEGER NOT NULL,
        score   REAL,
        mu      REAL    NOT NULL,
        sigma   REAL    NOT NULL,
        PRIMARY KEY (game, seat)
    );
    CREATE INDEX result_seats_by_player ON result_seats(player, game);
    CREATE TABLE ratings (
        scope       TEXT    NOT NULL,
        game_id     TEXT    NOT NULL,
        player      TEXT    NOT NULL,
        name        TEXT    NOT NULL,
        mu          REAL    NOT NULL,
        sigma       REAL    NOT NULL,
        games       INTEGER NOT NULL DEFAULT 0,
        wins        INTEGER NOT NULL DEFAULT 0,
        updated_at  REAL    NOT NULL,
        PRIMARY KEY (scope, game_id, player)
    );
    CREATE INDEX ratings_by_player ON ratings(scope, player);
    CREATE INDEX games_finished ON games(updated_at) WHERE status='finished';
    CREATE TABLE follows (
        game        INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id     INTEGER NOT NULL,
        name        TEXT    NOT NULL,
        thread_id   INTEGER,
        created_at  REAL    NOT NULL,
        PRIMARY KEY (game, user_id)
    );
    """,
    # 7: durable announcements (the message a change owes the channel, due at announce_due
    # until Discord accepted it) and games paused because their channel is gone
    """
    ALTER TABLE games ADD COLUMN announce_due REAL;
    ALTER TABLE games ADD COLUMN announced_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN announce_tries INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN paused_at REAL;
    CREATE INDEX games_announce_due ON games(announce_due) WHERE announce_due IS NOT NULL;
    CREATE INDEX games_paused ON games(paused_at) WHERE paused_at IS NOT NULL;
    """,
    # 8: a follower's copies are owed like the channel's messages: the newest version the
    # follower got, and when the next one is due (set once the channel got a newer one)
    """
    ALTER TABLE follows ADD COLUMN copied_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE follows ADD COLUMN copy_due REAL;
    ALTER TABLE follows ADD COLUMN copy_tries INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX follows_copy_due ON follows(copy_due) WHERE copy_due IS NOT NULL;
    """,
    # 9: AI seats are rated per level: the one AI player of a game becomes its normal level
    """
    UPDATE ratings SET player = player || ':normal' WHERE player LIKE 'ai:%' AND player NOT LIKE 'ai:%:%';
    UPDATE result_seats SET player = player || ':normal' WHERE player LIKE 'ai:%' AND player NOT LIKE 'ai:%:%';
    """,
]
