"""AI seats' decisions, off the event loop: in a pool of processes (`pool.AIPool`), or in a
thread when there is none, so a slow decision never delays an acknowledgement, an
autocomplete or another table's move."""
