"""One package per game; each registers its rules object with engine.registry."""
