"""Message catalogs: every language has every key, with the same placeholders.

Checked for the platform catalog (`bot/i18n/locales/`), every feature's
(`bot/features/*/locales/`) and for every game
catalog that exists at run time (`bot/games/*/locales/`), so a game package
that adds a `locales/` folder is covered automatically. Each catalog is its own
parametrised case, named by its folder, and every failure lists the offending
keys, so a broken game catalog is easy to tell apart from a broken platform one.
"""

from __future__ import annotations

import json
import re
import string
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, Translator, _flatten, load_catalog, normalise_language, plural_form

ROOT = Path(__file__).resolve().parents[2]
PLATFORM_DIR = ROOT / "bot" / "i18n" / "locales"
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE)

# Discord refuses command/option descriptions longer than this.
MAX_COMMAND_DESCRIPTION = 100
# An English value longer than this (with letters in it) that reappears verbatim
# in another language is almost certainly an untranslated copy.
UNTRANSLATED_MIN_LENGTH = 25
# (catalog folder relative to the repository, key) pairs whose text is really the
# same in every language (e.g. a proper name). Keep this list short and explain each.
IDENTICAL_ALLOWED: set[tuple[str, str]] = set()

_FORMATTER = string.Formatter()

# "day(s)", "Punkt(e)", "Zielkarte(n)", "Stadt(en)", "carte(s)": a word glued to a parenthesised plural ending.
PLURAL_HACK = re.compile(r"\w\((?:s|e|n|en|er|es|x)\)", re.IGNORECASE)
# An English number placeholder right before a counted noun ("{days} days", "{count} ticket") outside a
# `.one`/`.other` pair: with 1 (or 0 in French) the noun is wrong. Found in en, where the noun follows the number.
COUNTED_NOUN = re.compile(
    r"\{(?:count|n|days|used|total|points|score|pieces|turns|tickets|round|trains|ships|harbors|box_\w+|returned"
    r"|min|max|most|need|have)\} (?:days?|cards?|travel cards?|event cards?|points?|pts|tickets?"
    r"|destination tickets?|pieces?|rounds?|moves?|turns?|trains?|ships?|harbors?)\b")
# (catalog folder, key) of English texts whose number can never be 1, so one form is right. Explain each.
COUNT_ALWAYS_PLURAL: set[tuple[str, str]] = {
    # a piece mix is 10-25 trains and 35-50 ships
    ("bot/games/rails_and_sails/locales", "action.choose_mix"),
    ("bot/games/rails_and_sails/locales", "event.mix_revealed"),
    ("bot/games/rails_and_sails/locales", "hand.mix"),
    ("bot/games/rails_and_sails/locales", "illegal.bad_mix"),
    # the board's last leg back to London is a fixed 10 days (engine.games.detour.mapdata.LAST_LEG)
    ("bot/games/detour/locales", "img.back"),
}


def _catalog_dirs() -> list[Path]:
    feature_dirs = sorted(p for p in (ROOT / "bot" / "features").glob("*/locales") if p.is_dir())
    game_dirs = sorted(p for p in (ROOT / "bot" / "games").glob("*/locales") if p.is_dir())
    return [PLATFORM_DIR, *feature_dirs, *game_dirs]


CATALOG_DIRS = _catalog_dirs()


def _rel(directory: Path) -> str:
    return directory.relative_to(ROOT).as_posix()


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    dupes = sorted(k for k, n in Counter(keys).items() if n > 1)
    if dupes:
        raise ValueError(f"duplicate JSON keys: {dupes}")
    return dict(pairs)


def _leaves(data: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """Every (dotted key, raw value) pair, keeping duplicates that `_flatten` would merge."""
    out: list[tuple[str, Any]] = []
    for key, value in data.items():
        full = f"{prefix}{key}"
        if isinstance(value, dict):
            out.extend(_leaves(value, full + "."))
        else:
            out.append((full, value))
    return out


def _read_platform(lang: str) -> dict[str, str]:
    """The platform's texts: its own catalog and its features' (no key in two of them)."""
    merged: dict[str, str] = {}
    for directory in CATALOG_DIRS:
        if directory == PLATFORM_DIR or directory.parent.parent.name == "features":
            texts = _read(directory, lang)
            assert not set(texts) & set(merged), f"{_rel(directory)}: keys the platform has already"
            merged.update(texts)
    return merged


def _read(directory: Path, lang: str) -> dict[str, str]:
    """The flattened catalog as the bot sees it, read fresh from disk (bypassing `load_catalog`'s cache)."""
    path = directory / f"{lang}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        pytest.fail(f"{_rel(path)} is not valid JSON: {exc}")
    assert isinstance(data, dict), f"{_rel(path)}: the top level must be an object"
    return _flatten(data)


def _structure_problems(path: Path) -> list[str]:
    """Duplicate keys (the last silently wins), keys that collide once flattened, non-string values."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_duplicate_keys)
    except ValueError as exc:
        return [str(exc)]
    if not isinstance(data, dict):
        return ["the top level must be an object"]
    leaves = _leaves(data)
    problems = []
    clashes = sorted(k for k, n in Counter(k for k, _ in leaves).items() if n > 1)
    if clashes:
        problems.append(f"keys that collide once flattened with dots: {clashes}")
    not_text = sorted(k for k, v in leaves if not isinstance(v, str))
    if not_text:
        problems.append(f"values that are not strings: {not_text}")
    return problems


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in _FORMATTER.parse(text) if field is not None}


def _has_letters(text: str) -> bool:
    without_fields = re.sub(r"\{[^{}]*\}", "", text)
    return any(ch.isalpha() for ch in without_fields)


def _markup(text: str) -> Counter[str]:
    """Discord markdown and line breaks: these must survive translation unchanged."""
    return Counter({"**": text.count("**"), "`": text.count("`"), "\\n": text.count("\n")})


def _emoji(text: str) -> Counter[str]:
    """Emoji and other symbols (Unicode category So)."""
    return Counter(ch for ch in text if unicodedata.category(ch) == "So")


def _translated(cats: dict[str, dict[str, str]]) -> list[str]:
    return [lang for lang in TRANSLATED if lang in cats]


def _report(directory: Path, lang: str, problem: str, items: list[str]) -> str:
    shown = "\n  ".join(items[:60])
    more = f"\n  … and {len(items) - 60} more" if len(items) > 60 else ""
    return f"{_rel(directory)}/{lang}.json: {problem} ({len(items)}):\n  {shown}{more}"


@pytest.fixture(params=CATALOG_DIRS, ids=_rel)
def catalogs(request: pytest.FixtureRequest) -> tuple[Path, dict[str, dict[str, str]]]:
    """The catalogs present in one folder; a missing file is reported once, by test_all_languages_present."""
    directory: Path = request.param
    present = [lang for lang in LANGUAGES if (directory / f"{lang}.json").is_file()]
    if DEFAULT_LANGUAGE not in present:
        pytest.skip(f"{_rel(directory)} has no {DEFAULT_LANGUAGE}.json (see test_all_languages_present)")
    return directory, {lang: _read(directory, lang) for lang in present}


@pytest.mark.parametrize("directory", CATALOG_DIRS, ids=_rel)
def test_all_languages_present(directory: Path) -> None:
    missing = [f"{lang}.json" for lang in LANGUAGES if not (directory / f"{lang}.json").is_file()]
    assert not missing, f"{_rel(directory)}: missing catalog files: {', '.join(missing)}"


@pytest.mark.parametrize("directory", CATALOG_DIRS, ids=_rel)
def test_catalog_files_are_well_formed(directory: Path) -> None:
    problems = [f"{_rel(path)}: {problem}" for path in sorted(directory.glob("*.json"))
                for problem in _structure_problems(path)]
    assert not problems, "\n".join(problems)


def test_catalog_discovery_finds_the_platform_catalog() -> None:
    assert CATALOG_DIRS[0] == PLATFORM_DIR
    assert (PLATFORM_DIR / f"{DEFAULT_LANGUAGE}.json").is_file()


def test_same_keys(catalogs: tuple[Path, dict[str, dict[str, str]]]) -> None:
    directory, cats = catalogs
    english = set(cats[DEFAULT_LANGUAGE])
    problems = []
    for lang in _translated(cats):
        keys = set(cats[lang])
        if english - keys:
            problems.append(_report(directory, lang, "keys missing (present in en)", sorted(english - keys)))
        if keys - english:
            problems.append(_report(directory, lang, "keys not in en", sorted(keys - english)))
    assert not problems, "\n".join(problems)


def test_same_placeholders(catalogs: tuple[Path, dict[str, dict[str, str]]]) -> None:
    directory, cats = catalogs
    problems = []
    for lang in cats:
        bad = []
        for key, text in sorted(cats[lang].items()):
            try:
                _placeholders(text)
            except ValueError as exc:
                bad.append(f"{key}: {exc} in {text!r}")
        if bad:
            problems.append(_report(directory, lang, "unparseable braces", bad))
    assert not problems, "\n".join(problems)
    for lang in _translated(cats):
        bad = []
        for key, en_text in sorted(cats[DEFAULT_LANGUAGE].items()):
            if key not in cats[lang]:
                continue  # reported by test_same_keys
            want, got = _placeholders(en_text), _placeholders(cats[lang][key])
            if want != got:
                bad.append(f"{key}: en {sorted(want)} != {lang} {sorted(got)}")
        if bad:
            problems.append(_report(directory, lang, "placeholders differ from en", bad))
    assert not problems, "\n".join(problems)


def test_same_markdown_and_emoji(catalogs: tuple[Path, dict[str, dict[str, str]]]) -> None:
    """Same bold/code markers and line breaks as English; every English emoji kept (a translation may add one)."""
    directory, cats = catalogs
    problems = []
    for lang in _translated(cats):
        bad = []
        for key, en_text in sorted(cats[DEFAULT_LANGUAGE].items()):
            if key not in cats[lang]:
                continue  # reported by test_same_keys
            text = cats[lang][key]
            want, got = _markup(en_text), _markup(text)
            if want != got:
                diff = {k: (want[k], got[k]) for k in want if want[k] != got[k]}
                bad.append(f"{key}: markdown counts (en, {lang}) {diff} in {text!r}")
            lost = _emoji(en_text) - _emoji(text)
            if lost:
                bad.append(f"{key}: emoji missing in {lang}: {''.join(sorted(lost.elements()))} in {text!r}")
        if bad:
            problems.append(_report(directory, lang, "markdown/emoji differ from en", bad))
    assert not problems, "\n".join(problems)


def test_no_parenthesised_plural_endings(catalogs: tuple[Path, dict[str, dict[str, str]]]) -> None:
    """"1 day(s)" reads badly in every language: a text with a count uses a `.one`/`.other` pair instead."""
    directory, cats = catalogs
    problems = []
    for lang in cats:
        bad = sorted(f"{k}: {m.group()!r} in {v!r}" for k, v in cats[lang].items() for m in PLURAL_HACK.finditer(v))
        if bad:
            problems.append(_report(directory, lang, "parenthesised plural endings (use key.one/key.other)", bad))
    assert not problems, "\n".join(problems)


def test_plural_pairs_are_complete(catalogs: tuple[Path, dict[str, dict[str, str]]]) -> None:
    """Every `.one` has its `.other` twin (and the reverse) in every language.

    (`test_same_keys` then also holds each pair to the English one.) A pair may agree with a number it
    does not show, e.g. "Winner:" / "Winners:" by how many names follow.
    """
    directory, cats = catalogs
    problems = []
    for lang in cats:
        keys = set(cats[lang])
        bad = sorted(f"{k} without {k[:-4]}.other" for k in keys
                     if k.endswith(".one") and k[:-4] + ".other" not in keys)
        bad += sorted(f"{k} without {k[:-6]}.one" for k in keys
                      if k.endswith(".other") and k[:-6] + ".one" not in keys)
        if bad:
            problems.append(_report(directory, lang, "incomplete plural pairs", bad))
    assert not problems, "\n".join(problems)


def test_counted_nouns_use_plural_keys(catalogs: tuple[Path, dict[str, dict[str, str]]]) -> None:
    """'{days} days' outside a plural pair says "1 days"; such texts must be `.one`/`.other` pairs."""
    directory, cats = catalogs
    bad = sorted(
        f"{k}: {m.group()!r}" for k, v in cats[DEFAULT_LANGUAGE].items()
        if not k.endswith((".one", ".other")) and (_rel(directory), k) not in COUNT_ALWAYS_PLURAL
        for m in COUNTED_NOUN.finditer(v)
    )
    assert not bad, _report(directory, DEFAULT_LANGUAGE, "a number before a noun outside a plural pair", bad)


def test_no_empty_values(catalogs: tuple[Path, dict[str, dict[str, str]]]) -> None:
    directory, cats = catalogs
    problems = []
    for lang in cats:
        empty = sorted(k for k, v in cats[lang].items() if not v.strip())
        if empty:
            problems.append(_report(directory, lang, "empty values", empty))
    assert not problems, "\n".join(problems)


def test_command_descriptions_fit_discord(catalogs: tuple[Path, dict[str, dict[str, str]]]) -> None:
    directory, cats = catalogs
    problems = []
    for lang in cats:
        long = sorted(f"{k} ({len(v)} chars): {v!r}" for k, v in cats[lang].items()
                      if k.startswith("cmd.") and len(v) > MAX_COMMAND_DESCRIPTION)
        if long:
            problems.append(_report(directory, lang, f"cmd.* longer than {MAX_COMMAND_DESCRIPTION}", long))
    assert not problems, "\n".join(problems)


def test_names_and_choices_fit_discord(catalogs: tuple[Path, dict[str, dict[str, str]]]) -> None:
    """Command names (`name.*`) must be valid Discord names; choice labels and titles ≤ 100 chars."""
    directory, cats = catalogs
    problems = []
    for lang in cats:
        bad = sorted(f"{k}: {v!r}" for k, v in cats[lang].items()
                     if k.startswith("name.") and not re.fullmatch(r"[-_\w]{1,32}", v.lower().replace(" ", "-")))
        bad += sorted(f"{k} ({len(v)} chars)" for k, v in cats[lang].items()
                      if (k == "title" or k.startswith("choice.")) and len(v) > MAX_COMMAND_DESCRIPTION)
        if bad:
            problems.append(_report(directory, lang, "not a valid Discord command name / choice label", bad))
    assert not problems, "\n".join(problems)


def _command_refs(text: str) -> list[tuple[str, str | None]]:
    """(`group`, `sub` or None) for each slash command written in backticks: `/game new game:<id>`."""
    refs = []
    for span in re.findall(r"`([^`]*)`", text):
        words = span.split()
        if not words or not re.fullmatch(r"/[-\w]+", words[0]):
            continue
        sub = words[1] if len(words) > 1 and re.fullmatch(r"[-\w]+", words[1]) else None
        refs.append((words[0][1:], sub))
    return refs


def test_command_references_use_the_localised_names(catalogs: tuple[Path, dict[str, dict[str, str]]]) -> None:
    """When `/game cancel` has a localised name (`name.*`), the translated text must write it that way.

    Discord shows a user the command names of their own client language, and
    refusals are written in that same language, so `/game cancel` reads
    `/spiel abbrechen` in German.
    """
    directory, cats = catalogs
    platform = {lang: _read_platform(lang) for lang in LANGUAGES}
    problems = []
    for lang in _translated(cats):
        names = {k: v for k, v in {**platform[lang], **cats[lang]}.items() if k.startswith("name.")}
        en_names = {k for k in {**platform[DEFAULT_LANGUAGE], **cats[DEFAULT_LANGUAGE]} if k.startswith("name.")}
        bad = []
        for key, en_text in sorted(cats[DEFAULT_LANGUAGE].items()):
            if key not in cats[lang] or key.startswith("name."):
                continue
            for group, sub in _command_refs(en_text):
                if f"name.{group}" not in en_names:
                    continue  # the group has no localised name
                expected = "/" + names.get(f"name.{group}", group)
                if sub is not None:
                    sub_key = next((k for k in (f"name.{group}.{sub}", f"name.{sub}") if k in en_names), None)
                    expected += " " + (names.get(sub_key, sub) if sub_key else sub)
                spans = re.findall(r"`([^`]*)`", cats[lang][key])
                if not any(s == expected or s.startswith(expected + " ") for s in spans):
                    bad.append(f"{key}: should write `{expected}` (en: `/{group}{' ' + sub if sub else ''}`)")
        if bad:
            problems.append(_report(directory, lang, "command references not in the localised names", bad))
    assert not problems, "\n".join(problems)


def test_no_untranslated_copies(catalogs: tuple[Path, dict[str, dict[str, str]]]) -> None:
    directory, cats = catalogs
    problems = []
    for lang in _translated(cats):
        copies = sorted(
            key for key, en_text in cats[DEFAULT_LANGUAGE].items()
            if cats[lang].get(key) == en_text and len(en_text) > UNTRANSLATED_MIN_LENGTH and _has_letters(en_text)
            and (_rel(directory), key) not in IDENTICAL_ALLOWED
        )
        if copies:
            problems.append(_report(directory, lang, "values identical to English (untranslated?)", copies))
    assert not problems, "\n".join(problems)


def test_platform_button_labels_match_the_text_that_names_them() -> None:
    """'press **Join**' in a message must name the button as it is labelled in that language."""
    cats = {lang: _read_platform(lang) for lang in LANGUAGES}
    buttons = [k for k in cats[DEFAULT_LANGUAGE] if k.startswith("button.")]
    problems = []
    for lang in _translated(cats):
        for key, en_text in sorted(cats[DEFAULT_LANGUAGE].items()):
            for button in buttons:
                if f"**{cats[DEFAULT_LANGUAGE][button]}**" in en_text and key in cats[lang] and button in cats[lang]:
                    label = f"**{cats[lang][button]}**"
                    if label not in cats[lang][key]:
                        problems.append(f"{lang}: {key} should name {button} as {label}")
    assert not problems, "\n".join(problems)


# -- Translator ----------------------------------------------------------------------------------


@pytest.fixture
def game_dir(tmp_path: Path) -> Path:
    (tmp_path / "en.json").write_text(json.dumps({
        "only": {"en": "Only in English, {name}."},
        "both": "Hello {name}",
        "fields": "{a} and {b}",
        "cards": {"one": "{count} card", "other": "{count} cards"},
        "lobby": {"closed": "game override"},
    }), encoding="utf-8")
    (tmp_path / "de.json").write_text(json.dumps({
        "both": "Hallo {name}",
        "fields": "{a} und {b}",
        "cards": {"one": "{count} Karte", "other": "{count} Karten"},
    }), encoding="utf-8")
    return tmp_path


def test_translator_falls_back_to_english_for_a_missing_key(game_dir: Path) -> None:
    t = Translator("de", game_dir)
    assert t("only.en", name="Fogg") == "Only in English, Fogg."
    assert t.has("only.en")


def test_translator_prefers_the_language_then_the_game_catalog(game_dir: Path) -> None:
    t = Translator("de", game_dir)
    assert t("both", name="Fogg") == "Hallo Fogg"
    # German platform text beats the English game override: the language comes first.
    assert t("lobby.closed") == load_catalog(str(PLATFORM_DIR), "de")["lobby.closed"]
    assert Translator("en", game_dir)("lobby.closed") == "game override"


def test_translator_returns_the_key_when_nothing_has_it(game_dir: Path) -> None:
    t = Translator("fr", game_dir)
    assert t("no.such.key") == "no.such.key"
    assert not t.has("no.such.key")


def test_translator_formats_placeholders_and_leaves_unknown_ones(game_dir: Path) -> None:
    t = Translator("de", game_dir)
    assert t("fields", a="A", b="B") == "A und B"
    assert t("fields", a="A") == "A und {b}"
    assert t("fields") == "{a} und {b}"
    assert t("both", name="Fogg", extra="ignored") == "Hallo Fogg"


def test_translator_plural(game_dir: Path) -> None:
    t = Translator("de", game_dir)
    assert t.plural("cards", 1) == "1 Karte"
    assert t.plural("cards", 3) == "3 Karten"


@pytest.mark.parametrize(("lang", "forms"), [
    ("en", {0: "other", 1: "one", 2: "other", 11: "other", 21: "other"}),
    ("de", {0: "other", 1: "one", 2: "other", 11: "other", 21: "other"}),
    ("fr", {0: "one", 1: "one", 2: "other", 11: "other", 21: "other"}),
    ("de-AT", {0: "other", 1: "one"}),
    ("fr-CA", {0: "one", 1: "one", 2: "other"}),
    ("xx", {0: "other", 1: "one", 2: "other"}),
])
def test_plural_rule_per_language(lang: str, forms: dict[int, str]) -> None:
    assert {n: plural_form(lang, n) for n in forms} == forms
    assert plural_form(lang, -1) == forms[1]  # "-1 point" like "1 point"


def test_translator_plural_uses_the_french_rule(game_dir: Path) -> None:
    (game_dir / "fr.json").write_text(json.dumps({"cards": {"one": "{count} carte", "other": "{count} cartes"}}),
                                      encoding="utf-8")
    t = Translator("fr", game_dir)
    assert [t.plural("cards", n) for n in (0, 1, 2)] == ["0 carte", "1 carte", "2 cartes"]
    assert [Translator("de", game_dir).plural("cards", n) for n in (0, 1, 2)] == ["0 Karten", "1 Karte", "2 Karten"]


def test_translator_plural_falls_back_to_other_without_one(tmp_path: Path) -> None:
    (tmp_path / "en.json").write_text(json.dumps({"gold": {"other": "{count} gold"}}), encoding="utf-8")
    assert Translator("en", tmp_path).plural("gold", 1) == "1 gold"


GAMES = ROOT / "bot" / "games"


@pytest.mark.parametrize(("game", "key", "params", "expected"), [
    ("around_the_world", "hand.home", {}, {
        "en": ["You are back in London after 0 days.", "You are back in London after 1 day.",
               "You are back in London after 2 days."],
        "de": ["Du bist nach 0 Tagen zurück in London.", "Du bist nach 1 Tag zurück in London.",
               "Du bist nach 2 Tagen zurück in London."],
        "fr": ["Tu es de retour à Londres après 0 jour.", "Tu es de retour à Londres après 1 jour.",
               "Tu es de retour à Londres après 2 jours."]}),
    ("around_the_world", "event.exchange", {"seat": "Ada"}, {
        "en": ["Ada exchanges 0 travel cards.", "Ada exchanges 1 travel card.", "Ada exchanges 2 travel cards."],
        "de": ["Ada tauscht 0 Reisekarten.", "Ada tauscht 1 Reisekarte.", "Ada tauscht 2 Reisekarten."],
        "fr": ["Ada échange 0 carte de voyage.", "Ada échange 1 carte de voyage.", "Ada échange 2 cartes de voyage."]}),
    ("rails_and_sails", "event.tickets_kept", {"seat": "Bo", "returned": 1}, {
        "en": ["🎫 Bo keeps 0 tickets and returns 1.", "🎫 Bo keeps 1 ticket and returns 1.",
               "🎫 Bo keeps 2 tickets and returns 1."],
        "de": ["🎫 Bo behält 0 Zielkarten und legt 1 zurück.", "🎫 Bo behält 1 Zielkarte und legt 1 zurück.",
               "🎫 Bo behält 2 Zielkarten und legt 1 zurück."],
        "fr": ["🎫 Bo garde 0 destination et en remet 1.", "🎫 Bo garde 1 destination et en remet 1.",
               "🎫 Bo garde 2 destinations et en remet 1."]}),
    ("detour", "hand.line", {"pawn": "Cy", "hand": "10, 8", "played": "—"}, {
        "en": ["**Cy**: in hand 10, 8; played —; 0 days to go.", "**Cy**: in hand 10, 8; played —; 1 day to go.",
               "**Cy**: in hand 10, 8; played —; 2 days to go."],
        "de": ["**Cy**: auf der Hand 10, 8; gespielt —; noch 0 Tage.",
               "**Cy**: auf der Hand 10, 8; gespielt —; noch 1 Tag.",
               "**Cy**: auf der Hand 10, 8; gespielt —; noch 2 Tage."],
        "fr": ["**Cy** : en main 10, 8 ; jouées — ; encore 0 jour.",
               "**Cy** : en main 10, 8 ; jouées — ; encore 1 jour.",
               "**Cy** : en main 10, 8 ; jouées — ; encore 2 jours."]}),
])
def test_rendered_counts_0_1_2(game: str, key: str, params: dict[str, Any], expected: dict[str, list[str]]) -> None:
    for lang, texts in expected.items():
        t = Translator(lang, GAMES / game / "locales")
        assert [t.plural(key, n, **params) for n in (0, 1, 2)] == texts, lang


def test_log_header_reads_right_for_one_move() -> None:
    """The log header counts moves without a plural noun after the number ("The last 1 of 1 moves")."""
    for lang in LANGUAGES:
        text = Translator(lang)("log.header", count=1, total=1)
        assert "1" in text and not COUNTED_NOUN.search(load_catalog(str(PLATFORM_DIR), lang)["log.header"])
    assert Translator("en")("log.header", count=1, total=1) == "📜 Last moves (1 of 1):"


def test_bot_added_line_adds_no_ai_suffix_to_the_name() -> None:
    """The AI's name is shown as it is ("AI 2" must not become "AI 2 (AI)"); 🤖 and the sentence say it is an AI."""
    for lang in LANGUAGES:
        for count in (1, 2):
            text = Translator(lang).plural("lobby.bots_added", count, names="**AI 2**")
            assert "**AI 2**" in text and not re.search(r"\((AI|KI|IA)\)", text), text


def test_translator_with_the_real_platform_catalog() -> None:
    for lang in LANGUAGES:
        t = Translator(lang)
        expected = load_catalog(str(PLATFORM_DIR), lang)["lobby.joined"].replace("{name}", "Passepartout")
        assert t("lobby.joined", name="Passepartout") == expected
        assert "Passepartout" in expected
    assert Translator("de-DE").lang == "de"
    assert Translator("xx")("lobby.joined", name="Fix") == Translator("en")("lobby.joined", name="Fix")
    assert Translator("fr").for_game(None).lang == "fr"


@pytest.mark.parametrize(("code", "expected"), [
    ("de-DE", "de"), ("de", "de"), ("DE", "de"), ("fr", "fr"), ("fr-CA", "fr"), ("fr_FR", "fr"),
    ("en-US", "en"), ("en-GB", "en"), ("es-ES", "en"), ("pt-BR", "en"), ("xx", "en"), ("", "en"), (None, "en"),
])
def test_normalise_language(code: str | None, expected: str) -> None:
    assert normalise_language(code) == expected
