"""`pbp preview`: the post on an HTML page as the campaign's forum shows it.

The page is checked as HTML (escaped, only the dialect's tags, no script, the
same bytes every time), through the command line (where it is written, what
is said), and in a real browser: headless Chromium renders it and the post's
text is on the page (skipped, saying how to install it, where Chromium is absent;
.ci/run installs it first).
"""

from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

import pytest

from pbp.render import preview as pv
from tests.helpers import copy_example, pbp

CHROMIUM = Path("/usr/bin/chromium")
HOSTILE = '<script>alert(1)</script> [url=javascript:alert(1)]clic[/url] [img]javascript:x[/img] "q" &amp;'


def body(page: str) -> str:
    """The inside of the post's frame."""
    return page[page.index('<div class="post-body">'):page.index('<details class="source">')]


# -- the page --------------------------------------------------------------------------------

def test_a_bbcode_post_renders_with_its_dialects_tags_only():
    text = ('[size=150][b]Tour 1[/b][/size]\n[quote="Lucy"]Je file.[/quote]\n[list]\n[*]un[list]\n[*]assaut 1\n'
            '[/list]\n[*]deux\n[/list]\n[spoiler="Secret"]caché[/spoiler] [color=red]rouge[/color] [s]barré[/s]')
    phpbb = body(pv.page(text, "bbcode", "phpbb", "fr", "T", "post"))
    assert '<span style="font-size:150%"><strong>Tour 1</strong></span>' in phpbb
    assert '<blockquote><div class="quote-author">Lucy a écrit\u00a0:</div>Je file.</blockquote>' in phpbb
    assert "<ul><li>un<ul><li>assaut 1</li></ul></li><li>deux</li></ul>" in phpbb
    assert '<span style="color:red">rouge</span>' in phpbb
    # phpBB has no spoiler and no [s]: they stay text, as the board would show them
    assert '[spoiler="Secret"]caché[/spoiler]' in phpbb.replace("&quot;", '"') and "[s]barré[/s]" in phpbb
    xenforo = body(pv.page(text, "bbcode", "xenforo", "en", "T", "post"))
    assert '<span style="font-size:22px"><strong>Tour 1</strong></span>' not in xenforo  # 150 is no 1-7 size
    assert '<details class="spoiler"><summary>Secret</summary>caché</details>' in xenforo
    assert "<s>barré</s>" in xenforo and "Lucy wrote:" in xenforo
    forumactif = body(pv.page("[size=18]x[/size] [strike]y[/strike]", "bbcode", "forumactif", "fr", "T", "p"))
    assert '<span style="font-size:18px">x</span> <s>y</s>' in forumactif


def test_a_markdown_post_renders_as_commonmark_with_tables_and_no_links_made():
    text = ("## Tour 1\n\n**Mélétê**\u00a0: fouille.  \n**Corbin**\u00a0: repos.\n\n- un\n  - assaut 1\n\n"
            "| a | b |\n|---|---|\n| 1 | 2 |\n\n~~barré~~ www.example.org <b>x</b>\n\n> **Lucy**\u00a0:\n>\n> Je file.  \n")
    page = body(pv.page(text, "markdown", None, "fr", "T", "post"))
    assert "<h2>Tour 1</h2>" in page
    assert "<p><strong>Mélétê</strong>\u00a0: fouille.<br />\n<strong>Corbin</strong>\u00a0: repos.</p>" in page
    assert "<ul>\n<li>un\n<ul>\n<li>assaut 1</li>\n</ul>\n</li>\n</ul>" in page
    assert "<table>" in page and "<s>barré</s>" in page
    assert "<a " not in page  # no linkify: a forum does not link what pbp defused
    assert "&lt;b&gt;x&lt;/b&gt;" in page  # raw HTML is text
    assert "<blockquote>" in page and "Je file." in page


@pytest.mark.parametrize("fmt, dialect", [("bbcode", "phpbb"), ("bbcode", "forumactif"), ("markdown", None)])
def test_everything_is_escaped_and_the_page_runs_no_script(fmt, dialect):
    page = pv.page(HOSTILE, fmt, dialect, "en", 'Title <i>"x"</i>', "label & <b>")
    assert "<script" not in page.lower()
    assert not re.search(r"""(?:href|src)\s*=\s*["']?javascript:""", page, re.I)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body(page)
    assert "<title>Title &lt;i&gt;&quot;x&quot;&lt;/i&gt; — label &amp; &lt;b&gt;</title>" in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    # the text to paste, as it is, escaped
    assert "<pre>&lt;script&gt;alert(1)&lt;/script&gt; [url=javascript:alert(1)]" in page


def test_the_same_post_gives_the_same_page_and_no_time():
    a = pv.page("[b]x[/b]", "bbcode", "phpbb", "fr", "T", "p")
    assert a == pv.page("[b]x[/b]", "bbcode", "phpbb", "fr", "T", "p")
    assert not re.search(r"\d{1,2}:\d{2}|\b20\d\d\b", a)


def test_file_names():
    assert [pv.file_name("public", None), pv.file_name("gm", None), pv.file_name("private", "lucy")] == \
        ["preview.html", "preview-gm.html", "preview-lucy.html"]


# -- the command -------------------------------------------------------------------------------

@pytest.fixture
def manhunt(tmp_path):
    return copy_example("manhunt", tmp_path)


def test_preview_writes_beside_the_turn_and_says_where(manhunt):
    r = pbp("preview", cwd=manhunt)
    assert r.exit_code == 0, r.output
    assert r.output == ("Aperçu écrit dans turns/003/preview.html (ouvrez-le dans un navigateur, "
                        "ou relancez avec --open).\n")
    page = (manhunt / "turns/003/preview.html").read_text(encoding="utf-8")
    public = (manhunt / "turns/003/public.bbcode").read_text(encoding="utf-8")
    assert "<title>La chasse à l&#x27;homme — post public du tour 3</title>" in page
    assert "<strong>Mélétê</strong> : revêtir une armure." in page
    assert f"<pre>{html.escape(public)}</pre>" in page  # the text to paste, byte for byte
    r = pbp("preview", "--turn", "1", "--player", "Lucy", cwd=manhunt)  # handles are case-insensitive
    assert r.exit_code == 0 and "turns/001/preview-lucy.html" in r.output
    page = (manhunt / "turns/001/preview-lucy.html").read_text(encoding="utf-8")
    assert "rapport privé de Mélétê (lucy), tour 1" in page and "Vous partez au nord" in page
    r = pbp("preview", "--gm", "--turn", "2", cwd=manhunt)
    assert r.exit_code == 0 and (manhunt / "turns/002/preview-gm.html").exists()


def test_preview_output_and_english(manhunt, tmp_path):
    config = (manhunt / "campaign.yaml").read_text(encoding="utf-8").replace("lang: fr", "lang: en")
    (manhunt / "campaign.yaml").write_text(config, encoding="utf-8")
    target = tmp_path / "out" / "page.html"
    target.parent.mkdir()
    r = pbp("preview", "--output", target, cwd=manhunt)
    assert r.exit_code == 0, r.output
    # the turn was written in French: the English page is rendered again, and the MJ is told
    assert r.output == ("Warning: turn 3 was written and sealed in fr; campaign.yaml now says en. The post is "
                        "rendered again: it is not the one the turn's seal covers (put fr back in campaign.yaml "
                        "for that one).\n"
                        f"Preview written to {target} (open it in a browser, or run again with --open).\n")
    assert "public post of turn 3" in target.read_text(encoding="utf-8")


def test_preview_open_uses_the_browser(manhunt, monkeypatch):
    opened = []
    monkeypatch.setattr("webbrowser.open", lambda url: opened.append(url) or True)
    r = pbp("preview", "--open", cwd=manhunt)
    assert r.exit_code == 0
    assert opened == [(manhunt / "turns/003/preview.html").resolve().as_uri()]
    assert r.output.splitlines()[-1] == "Ouvert dans le navigateur : turns/003/preview.html"
    monkeypatch.setattr("webbrowser.open", lambda url: False)
    r = pbp("preview", "--open", cwd=manhunt)
    assert r.output.splitlines()[-1] == ("Aucun navigateur n'a pu être ouvert ; ouvrez turns/003/preview.html "
                                         "vous-même.")


def test_preview_refuses_bad_options(manhunt):
    r = pbp("preview", "--gm", "--player", "lucy", cwd=manhunt)
    assert r.exit_code == 2 and "--player et --gm s'excluent" in r.output
    r = pbp("preview", "--turn", "9", cwd=manhunt)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert not list(manhunt.glob("turns/*/preview*.html"))


def test_a_preview_page_is_never_archived(tmp_path):
    target = tmp_path / "chasse"
    assert pbp("init", target, "--ruleset", "manhunt", "--example").exit_code == 0
    assert pbp("preview", "--gm", cwd=target).exit_code == 0
    assert pbp("run", cwd=target).exit_code == 0
    tracked = subprocess.run(["git", "-C", str(target), "ls-files"], capture_output=True, text=True).stdout
    assert "turns/004/public.bbcode" in tracked and "preview" not in tracked
    assert (target / "turns/003/preview-gm.html").exists()


# -- in a real browser ---------------------------------------------------------------------------

@pytest.mark.skipif(not CHROMIUM.exists(), reason="headless Chromium is needed: apt-get install chromium")
@pytest.mark.parametrize("fmt", ["bbcode", "markdown"])
def test_chromium_renders_the_preview_with_the_posts_text(manhunt, tmp_path, fmt):
    config = (manhunt / "campaign.yaml").read_text(encoding="utf-8")
    (manhunt / "campaign.yaml").write_text(config.replace("format: bbcode", f"format: {fmt}"), encoding="utf-8")
    assert pbp("preview", "--turn", "1", "--player", "corbin", cwd=manhunt).exit_code == 0
    page = manhunt / "turns/001/preview-corbin.html"
    shot = tmp_path / "shot.png"
    profile = tmp_path / "profile"
    common = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
              f"--user-data-dir={profile}", "--window-size=1000,1400"]
    dom = subprocess.run(common + ["--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    shown = dom.stdout
    # the browser built the page: the post's frame, its title, its lists and the post's own words
    assert '<div class="post-head">La chasse à l\'homme — rapport privé de Corbin (corbin), tour 1</div>' in shown
    assert "Un piège se déclenche" in shown and "Vous partez à l'ouest en ouvrant une porte fermée." in shown
    assert shown.count("<li>") >= 3 and "<script" not in shown
    shot_run = subprocess.run(common + [f"--screenshot={shot}", page.as_uri()], capture_output=True, text=True,
                              timeout=120)
    assert shot_run.returncode == 0, shot_run.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
