"""Travel-card arithmetic of Around the World: the days a set of cards costs for a leg,
the distinct card sets of a hand. Shared by the rules and the AI (which must not import
the rules)."""

from __future__ import annotations

from . import data as D

CARD_INFO = D.CARD_INFO
VALUE = {c: v for c, (_, v) in CARD_INFO.items()}


def multiset_combos(items: list[str], k: int) -> list[tuple[str, ...]]:
    """Distinct k-card sub-multisets of the sorted list `items`."""
    if k == 0:
        return [()]
    if k == 1:
        return [(c,) for c in dict.fromkeys(items)]
    out: list[tuple[str, ...]] = []
    n = len(items)
    if k == 2:
        prev = None
        for a in range(n - 1):
            c = items[a]
            if c == prev:
                continue
            prev = c
            prev2 = None
            for b in range(a + 1, n):
                d = items[b]
                if d != prev2:
                    out.append((c, d))
                    prev2 = d
        return out

    def rec(start: int, chosen: tuple[str, ...]) -> None:
        if len(chosen) == k:
            out.append(chosen)
            return
        prev = None
        for i in range(start, n):
            card = items[i]
            if card == prev:
                continue
            prev = card
            rec(i + 1, chosen + (card,))

    rec(0, ())
    return out


def leg_days(cards: list[str] | tuple[str, ...], replaced: dict[int, int] | None = None) -> int:
    """Days for the given travel cards: the sum, except that two identical cards of one kind
    count once (unless either was replaced by balloon / propeller train / submarine).
    `replaced` maps a card index to its new value."""
    if not replaced:
        n = len(cards)
        if n == 1:
            return VALUE[cards[0]]
        if n == 2:
            a, b = cards
            return VALUE[a] if a == b else VALUE[a] + VALUE[b]
        if n == 0:
            return 0
    total = 0
    by_kind: dict[str, list[tuple[int, bool]]] = {}
    for i, card in enumerate(cards):
        kind, value = CARD_INFO[card]
        if replaced and i in replaced:
            by_kind.setdefault(kind, []).append((replaced[i], True))
        else:
            by_kind.setdefault(kind, []).append((value, False))
    for group in by_kind.values():
        if len(group) == 2 and not group[0][1] and not group[1][1] and group[0][0] == group[1][0]:
            total += group[0][0]
        else:
            total += sum(v for v, _ in group)
    return total


def best_modified(cards: tuple[str, ...], balloon_idx: int | None, armed: list[str]) -> tuple[int, list[str]]:
    """(fixed days, modifiers used) for a leg: the balloon card counts 0 here (its die is added
    later); an armed propeller train / submarine is applied to the card where it saves most
    days, and only if it saves any."""
    base_rep: dict[int, int] = {}
    if balloon_idx is not None:
        base_rep[balloon_idx] = 0
    choices: list[tuple[str, list[int | None]]] = []
    for mod, kind, _value in (("propeller_train", "train", 1), ("submarine", "ship", 2)):
        if mod in armed:
            idxs: list[int | None] = [None]
            idxs += [i for i, c in enumerate(cards) if CARD_INFO[c][0] == kind and i != balloon_idx]
            choices.append((mod, idxs))
    best = leg_days(cards, base_rep or None)
    best_used: list[str] = []
    if not choices:
        return best, best_used
    values = {"propeller_train": 1, "submarine": 2}

    def rec(k: int, rep: dict[int, int], used: list[str]) -> None:
        nonlocal best, best_used
        if k == len(choices):
            d = leg_days(cards, rep or None)
            if d < best or (d == best and len(used) < len(best_used)):
                best, best_used = d, list(used)
            return
        mod, idxs = choices[k]
        for idx in idxs:
            if idx is None:
                rec(k + 1, rep, used)
            else:
                rec(k + 1, {**rep, idx: values[mod]}, used + [mod])

    rec(0, dict(base_rep), [])
    return best, best_used
