"""The render workers' template: the process they are forked from imports this module first.

`RenderPool` starts its workers through `multiprocessing`'s forkserver with this module as its
preload, so importing it is the warm-up (`bot.images.pool.prepare_template`): every game
imported, their static layers, fonts and sprites drawn once. Each worker forked afterwards,
a replacement too, starts warm and shares those pages with the template and the other workers
instead of drawing its own copies. Nothing else imports it.
"""

from __future__ import annotations

from bot.images.pool import prepare_template

#: whether the warm-up succeeded (a worker forked from a cold template warms up itself)
WARMED: bool = prepare_template()
