"""The people's docs in Finnish and Swedish (docs/fi, docs/sv): each names its English source
and the source's version it translates; a source changed since fails here with the diff to read
and the command that records the translation as up to date (host/i18n/docs.py)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from host.i18n import docs

ROOT = docs.ROOT

# The English source -> its Finnish and Swedish translations.
TRANSLATED = {
    "docs/referee.md": ("docs/fi/tuomari.md", "docs/sv/domare.md"),
    "docs/desk.md": ("docs/fi/kilpailunjohtaja.md", "docs/sv/tavlingsledare.md"),
    "hardware/README.md": ("docs/fi/rakentaja.md", "docs/sv/byggare.md"),
}
LINK = re.compile(r"\]\(([^)\s]+)\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
# A code span the translation writes in its own language (a placeholder's name).
TRANSLATED_CODE = {"--tournament NAME": ("--tournament NIMI", "--tournament NAMN")}


def _translated_part(source: str, text: str) -> str:
    """The part of the source its translations cover: the builder's page up to the watchdog's
    details and from the keypad to the software's files; the others whole."""
    if source != "hardware/README.md":
        return text
    return (text[:text.index("### The watchdog")]
            + text[text.index("### Keypad"):text.index("## Software")])


def _code_spans(text: str) -> set[str]:
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # the keypad drawings are translated
    return {" ".join(span.split()) for span in re.findall(r"`([^`]+)`", text)}


def test_every_translation_is_as_new_as_its_source():
    problems = docs.stale()
    assert not problems, "\n" + "\n".join(problems)


def test_each_source_is_translated_into_finnish_and_swedish_and_links_them():
    for source, pair in TRANSLATED.items():
        for path in pair:
            assert (ROOT / path).is_file(), "%s has no translation %s" % (source, path)
            named = docs.header(ROOT / path)
            assert named is not None and named[0] == source, "%s: not a translation of %s" % (
                path, source)
        if source.startswith("docs/"):  # the builder's page is linked from README.md
            head = (ROOT / source).read_text(encoding="utf-8")[:600]
            for path in pair:
                assert Path(path).name in head, "%s does not link %s at its top" % (source, path)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for pair in TRANSLATED.values():
        for path in pair:
            assert path in readme, "README.md's readers table does not link %s" % path


def test_the_links_and_screenshots_of_a_translation_exist():
    for path in docs.translations():
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("#"):
                continue
            assert (path.parent / target.split("#")[0]).exists(), "%s: %s" % (path, target)


def _repo(tmp_path):
    (tmp_path / "docs" / "fi").mkdir(parents=True)
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\nPress A.\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return tmp_path


def test_a_changed_source_makes_its_translation_stale_and_refresh_records_it(tmp_path):
    root = _repo(tmp_path)
    source = root / "docs" / "guide.md"
    blob = docs.blob_hash(source.read_bytes())
    assert blob == subprocess.run(["git", "hash-object", str(source)], capture_output=True,
                                  text=True, check=True).stdout.strip()
    translation = root / "docs" / "fi" / "opas.md"
    translation.write_text("<!-- translates docs/guide.md @ %s -->\n# Opas\n\nPaina A.\n"
                           % ("0" * 40), encoding="utf-8")
    assert len(docs.stale(root)) == 1
    assert docs.refresh(translation, root) == blob
    assert docs.stale(root) == []

    source.write_text("# Guide\n\nPress A, then #.\n", encoding="utf-8")
    [problem] = docs.stale(root)
    assert "docs/fi/opas.md is older than docs/guide.md" in problem
    assert "git diff %s $(git hash-object -w docs/guide.md)" % blob in problem
    assert "python -m host.i18n.docs docs/fi/opas.md" in problem

    new = docs.refresh(translation, root)
    assert new != blob and docs.stale(root) == []
    assert translation.read_text(encoding="utf-8") == (
        "<!-- translates docs/guide.md @ %s -->\n# Opas\n\nPaina A.\n" % new)
    # both texts are in git's objects (refresh keeps them): the printed diff works
    diff = subprocess.run(["git", "diff", blob, new], cwd=root, capture_output=True,
                          text=True, check=True)
    assert "+Press A, then #." in diff.stdout


def test_a_translation_without_its_header_or_source_is_named(tmp_path):
    root = _repo(tmp_path)
    (root / "docs" / "fi" / "a.md").write_text("# Ilman otsaketta\n", encoding="utf-8")
    (root / "docs" / "fi" / "b.md").write_text(
        "<!-- translates docs/gone.md @ %s -->\n" % ("0" * 40), encoding="utf-8")
    problems = docs.stale(root)
    assert len(problems) == 2
    assert "docs/fi/a.md: its first line must be" in problems[0]
    assert "docs/fi/b.md: its source docs/gone.md does not exist" in problems[1]
    try:
        docs.refresh(root / "docs" / "fi" / "a.md", root)
    except ValueError as e:
        assert "has no" in str(e)
    else:
        raise AssertionError("refresh took a file without a header")


def test_a_translation_keeps_every_command_key_and_display_text_and_screenshot_of_its_source():
    # What a reader types or reads off a board or a page stays as it is: the keys (`*` `#`),
    # the display's texts (`PL 1 WON`), the commands (`pilkku desk`), and the same screenshots.
    for source, pair in TRANSLATED.items():
        text = _translated_part(source, (ROOT / source).read_text(encoding="utf-8"))
        spans = _code_spans(text)
        images = {Path(target).name for target in IMAGE.findall(text)}
        for i, path in enumerate(pair):
            translation = (ROOT / path).read_text(encoding="utf-8")
            have = _code_spans(translation)
            missing = sorted(span for span in spans - have
                             if TRANSLATED_CODE.get(span, ("", ""))[i] not in have)
            assert not missing, "%s lacks these of %s: %s" % (path, source, missing)
            shown = {Path(target).name for target in IMAGE.findall(translation)}
            assert images <= shown, "%s lacks the screenshots %s" % (path, images - shown)


def test_the_referee_cards_list_the_boards_texts_in_their_language():
    # The board's Finnish and Swedish texts (firmware/words_fi.py, words_sv.py) are on the
    # card of that language: a text changed or added there is a card out of date.
    import importlib

    for lang, card in (("fi", "docs/fi/tuomari.md"), ("sv", "docs/sv/domare.md")):
        table = importlib.import_module("firmware.words_" + lang).text
        text = (ROOT / card).read_text(encoding="utf-8")
        for line in table.split("\n"):
            if "=" in line:
                english, translated = line.split("=", 1)
                row = "| `%s` | `%s` |" % tuple(
                    t.replace("%s", "…").replace("%d", "N") for t in (english, translated))
                assert row in text, "%s lacks the board's text %r (firmware/words_%s.py)" % (
                    card, line, lang)
