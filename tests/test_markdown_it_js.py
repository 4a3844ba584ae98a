"""Player text links nothing in markdown-it, the JavaScript one (Discourse and
many Markdown boards render with it, linkify on): an e-mail address, a bare
domain, `www.`, a URL, as pbp's Markdown posts write them (a word joiner where
an autolinker looks: pbp.render.escaping), come out as text (issue 24).

The check runs node (every machine pbp is built on has Node.js and npm) with
the markdown-it version pinned in tests/js/package-lock.json, installed there
by `npm ci` the first time (from the npm registry, integrity-checked) and
reused after. It first checks that the same texts, written raw, are linked:
the linkifier is on and knows these addresses.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from pbp.render.formatters import MarkdownFormatter

PROBE = """
const md = require('markdown-it')({linkify: true});
// every autolink a forum may turn on (markdown-it 15 leaves the fuzzy ones off by default)
md.linkify.set({fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true});
const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(texts.map((t) => md.render(t))));
"""
# what a player writes that an autolinker takes for a link (a TLD linkify-it knows: .com, .org)
LINKED = ["mj@evil.com", "écrivez à mj@evil.com vite", "a.b@c.org", "mailto:mj@evil.com", "www.evil.com",
          "http://evil.com/x?a=1", "https://evil.com.", "evil.com", "voir ftp.evil.org"]


JS = Path(__file__).parent / "js"


def _installed() -> Path:
    """tests/js/node_modules, installed from the lock file when it is missing."""
    modules = JS / "node_modules"
    if not (modules / "markdown-it" / "package.json").is_file():
        done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=JS, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, f"npm ci in {JS} failed:\n{done.stderr}"
    return modules


def _markdown_it(texts: list[str]) -> list[str]:
    done = subprocess.run(["node", "-e", PROBE], input=json.dumps(texts), capture_output=True, text=True,
                          timeout=60, env={**os.environ, "NODE_PATH": str(_installed())})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_player_text_links_nothing_in_markdown_it_js():
    raw = _markdown_it(LINKED)
    assert all("<a " in html for html in raw), raw  # the linkifier is on and takes each of them
    escaped = _markdown_it([str(MarkdownFormatter("fr").esc(text)) for text in LINKED])
    assert [html for html in escaped if "<a " in html] == []
