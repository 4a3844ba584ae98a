"""Player text links nothing in markdown-it, the JavaScript one (Discourse and
many Markdown boards render with it, linkify on): an e-mail address, a bare
domain, `www.`, a URL, as pbp's Markdown posts write them (a word joiner where
an autolinker looks: pbp.render.escaping), come out as text (issue 24).

The check runs node with the markdown-it package, when this machine has them
(`npm install markdown-it` in a folder named by NODE_PATH); otherwise it is
skipped, saying so. It first checks that the same texts, written raw, are
linked: the linkifier is on and knows these addresses.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from pbp.render.formatters import MarkdownFormatter

PROBE = """
const md = require('markdown-it')({linkify: true});
const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(texts.map((t) => md.render(t))));
"""
# what a player writes that an autolinker takes for a link (a TLD linkify-it knows: .com, .org)
LINKED = ["mj@evil.com", "écrivez à mj@evil.com vite", "a.b@c.org", "mailto:mj@evil.com", "www.evil.com",
          "http://evil.com/x?a=1", "https://evil.com.", "evil.com", "voir ftp.evil.org"]


def _markdown_it(texts: list[str]) -> list[str]:
    done = subprocess.run(["node", "-e", PROBE], input=json.dumps(texts), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _available() -> str | None:
    """Why the check cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not installed"
    found = subprocess.run(["node", "-e", "require.resolve('markdown-it')"], capture_output=True, timeout=60)
    return None if found.returncode == 0 else "markdown-it (JS) not found by node: npm install markdown-it, NODE_PATH"


@pytest.mark.skipif(_available() is not None, reason=str(_available()))
def test_player_text_links_nothing_in_markdown_it_js():
    raw = _markdown_it(LINKED)
    assert all("<a " in html for html in raw), raw  # the linkifier is on and takes each of them
    escaped = _markdown_it([str(MarkdownFormatter("fr").esc(text)) for text in LINKED])
    assert [html for html in escaped if "<a " in html] == []
