"""The longest post a forum takes, by dialect (XenForo 25,000 characters,
phpBB 60,000, Discourse 32,000: ../shared FORUMS.md), overridable in
campaign.yaml; `pbp post --split` cuts a long post into posts that fit, never
inside a tag or a quote (checked with the `bbcode` package's own tokenizer)."""

from __future__ import annotations

import pytest

from tests.helpers import copy_example, pbp

PARAGRAPH = "Les torches vacillent dans le couloir nord, et quelque chose gratte derrière la porte. " * 12


def narration(paragraphs: int, quoted: int) -> str:
    body = "\n\n".join(PARAGRAPH for _ in range(paragraphs))
    quote = "\n>\n".join("> " + PARAGRAPH for _ in range(quoted))
    return f"{body}\n\n{quote}\n\nFin du tour."


@pytest.fixture
def camp(tmp_path):
    return copy_example("manhunt", tmp_path)


def play(camp, dialect="phpbb", limits="", text=None, fmt=None):
    config = camp / "campaign.yaml"
    config.write_text(config.read_text().replace("dialect: phpbb", f"dialect: {dialect}") + limits)
    gm = "turn: 4\nnarration: |\n" + "".join(f"  {line}\n" for line in (text or narration(30, 1)).split("\n"))
    (camp / "turns/004/gm.yaml").write_text(gm, encoding="utf-8")
    r = pbp("run", "--no-commit", *(["--format", fmt] if fmt else []), cwd=camp)
    assert r.exit_code == 0, r.output
    return r


def length(camp, ext="bbcode"):
    return len((camp / f"turns/004/public.{ext}").read_text(encoding="utf-8"))


@pytest.mark.parametrize("dialect, limit", [("xenforo", 25000), ("phpbb", 60000)])
def test_the_forum_limit_is_the_dialects(camp, dialect, limit):
    r = play(camp, dialect)
    n = length(camp)
    assert 25000 < n < 60000
    warned = f"turns/004/public.bbcode : {n} caractères, plus que {limit} (limite « post_chars »)"
    assert (warned in r.stderr) == (n > limit), r.stderr


def test_markdown_takes_discourses_limit(camp):
    config = camp / "campaign.yaml"
    config.write_text(config.read_text().replace("format: bbcode", "format: markdown"))
    r = play(camp)
    n = length(camp, "md")
    assert n > 32000 and f"turns/004/public.md : {n} caractères, plus que 32000" in r.stderr


def test_a_campaigns_own_limit_wins(camp):
    r = play(camp, "xenforo", "limits:\n  post_chars: 50000\n")
    assert "post_chars" not in r.stderr


def _balanced(part: str) -> bool:
    import bbcode

    stack = []
    for kind, name, _, _ in bbcode.Parser().tokenize(part):
        if kind == bbcode.Parser.TOKEN_TAG_START and name not in ("*", "hr"):
            stack.append(name)
        elif kind == bbcode.Parser.TOKEN_TAG_END:
            if not stack or stack.pop() != name:
                return False
    return not stack


@pytest.mark.parametrize("paragraphs, quoted", [(30, 1), (2, 60)], ids=["paragraphs", "one-long-quote"])
def test_split_gives_posts_that_fit_each_whole(camp, paragraphs, quoted):
    play(camp, "xenforo", text=narration(paragraphs, quoted))
    post = (camp / "turns/004/public.bbcode").read_text(encoding="utf-8")
    assert len(post) > 25000 and _balanced(post)
    r = pbp("post", "--split", cwd=camp)
    assert r.exit_code == 0, r.output
    chunks = r.stdout.split("——— message ")[1:]
    parts = [chunk.split(" ———\n", 1)[1] for chunk in chunks]
    assert len(parts) >= 2
    for i, (chunk, part) in enumerate(zip(chunks, parts), 1):
        assert chunk.startswith(f"{i} sur {len(parts)} ({len(part)} caractères, au plus 25000)")
        assert len(part) <= 25000 and _balanced(part), part[:200]
    # nothing lost, nothing moved: every line of the post, in order
    lines = [line for line in post.split("\n") if line.strip()]
    joined = "\n".join(parts)
    at = 0
    for line in lines:
        at = joined.index(line.replace("[/quote]", ""), at)
    if quoted > 1:  # the quote cut inside: closed at the end of a part, opened again at the next
        assert any(p.rstrip().endswith("[/quote]") for p in parts[:-1])
        assert any(p.startswith("[quote") for p in parts[1:])
