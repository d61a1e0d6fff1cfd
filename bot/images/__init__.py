"""Drawing boards, hands and a finished game's pictures off the event loop: the render
processes (`pool`), their queues by urgency (`queue`) and the cache of the images someone
asked to see (`cache`)."""
