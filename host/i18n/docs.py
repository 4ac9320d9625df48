"""The people's docs in Finnish and Swedish (docs/fi, docs/sv) and the English each translates.

The English stays the source. Each translation's first line names its source and the git
blob hash of the source's text when it was translated:

    <!-- translates docs/referee.md @ 3b18e512dba79e4c8300dd08aeb37f8e728b8dad -->

tests/i18n/test_docs_fresh.py fails when a source's text is no longer that blob, printing the
`git diff` to read. After bringing the translation up to date with the source:

    .venv/bin/python -m host.i18n.docs docs/fi/tuomari.md [more translations]

records the source's hash as it is now (and stores that text in git's objects, so the next
`git diff OLD NEW` finds it). Without arguments it lists the translations older than their
source (exit 1 if any)."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("fi", "sv")
HEADER = re.compile(r"<!-- translates (?P<source>\S+) @ (?P<blob>[0-9a-f]{40}) -->")


def blob_hash(text: bytes) -> str:
    """The git blob hash of a file's bytes (what `git hash-object FILE` prints)."""
    return hashlib.sha1(b"blob %d\0" % len(text) + text).hexdigest()


def translations(root: Path = ROOT) -> list[Path]:
    """Every translation: the Markdown files under docs/fi and docs/sv."""
    return sorted(p for lang in LANGUAGES for p in (root / "docs" / lang).glob("*.md"))


def header(path: Path) -> tuple[str, str] | None:
    """(source, blob) named on the translation's first line, None without one."""
    with path.open(encoding="utf-8") as f:
        found = HEADER.fullmatch(f.readline().strip())
    return (found["source"], found["blob"]) if found else None


def stale(root: Path = ROOT) -> list[str]:
    """One line for each translation without a header, with a missing source, or older
    than its source, saying what to do."""
    problems = []
    for path in translations(root):
        name = path.relative_to(root).as_posix()
        named = header(path)
        if named is None:
            problems.append("%s: its first line must be `<!-- translates SOURCE @ BLOB -->`;"
                            " write it, then run: python -m host.i18n.docs %s" % (name, name))
            continue
        source, blob = named
        if not (root / source).is_file():
            problems.append("%s: its source %s does not exist" % (name, source))
            continue
        now = blob_hash((root / source).read_bytes())
        if now != blob:
            problems.append(
                "%s is older than %s: see what changed with\n"
                "    git diff %s $(git hash-object -w %s)\n"
                "  bring the translation up to date, then run\n"
                "    .venv/bin/python -m host.i18n.docs %s" % (name, source, blob, source, name))
    return problems


def refresh(path: Path, root: Path = ROOT) -> str:
    """Record the source's hash as it is now on the translation's first line; returns it."""
    named = header(path)
    if named is None:
        raise ValueError("%s has no `<!-- translates SOURCE @ BLOB -->` first line" % path)
    source = root / named[0]
    text = source.read_bytes()
    blob = blob_hash(text)
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[0] = "<!-- translates %s @ %s -->" % (named[0], blob)
    path.write_text("\n".join(lines), encoding="utf-8")
    # Keep the text in git's objects: the test's `git diff OLD NEW` needs the old one later.
    subprocess.run(["git", "hash-object", "-w", "--", str(source)], cwd=root,
                   capture_output=True, check=False)
    return blob


def main(argv: list[str]) -> int:
    if not argv:
        problems = stale()
        print("\n".join(problems) if problems else "every translation is up to date")
        return 1 if problems else 0
    for arg in argv:
        path = Path(arg).resolve()
        try:
            print("%s: %s" % (arg, refresh(path)))
        except (OSError, ValueError) as e:
            print("%s: %s" % (arg, e), file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
