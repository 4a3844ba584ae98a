"""Seals (pbp/engine/seal.py): the dice commitment and the turn codes, as the posts show
them, as seals.yaml keeps them, and what status and verify say when the archive
no longer matches them."""

import hashlib
import hmac
import re
import unicodedata

import pytest

from pbp.base import usercache, yamlio
from pbp.engine import seal, seal_log
from pbp.engine.campaign import open_campaign
from tests.helpers import pbp, write

SECRET = "s3cret"  # the toy campaign's (tests/conftest.py)


def codes_of(root):
    return seal.archive_codes(open_campaign(root))


# -- the definitions -------------------------------------------------------------------

def test_the_commitment_is_a_domain_separated_sha256_of_the_secret():
    assert seal.commitment(SECRET) == hashlib.sha256(b"pbp-commit-v1:s3cret").hexdigest()
    assert seal.commitment(SECRET) != hashlib.sha256(b"s3cret").hexdigest()
    assert re.fullmatch("[0-9a-f]{64}", seal.commitment(SECRET))


def test_a_code_is_the_keyed_hash_of_the_documented_message():
    files = {"state.yaml": b"a: 1\n", "orders/lucy.yaml": b"player: lucy\n", "public.bbcode": b"Hello\n"}
    key = hashlib.sha256(b"pbp-seal-key-v1:s3cret").digest()
    message = ("pbp-seal-v1\nturn 3\nprevious abc\n"
               f"{hashlib.sha256(b'player: lucy' + bytes([10])).hexdigest()} orders/lucy.yaml\n"
               f"{hashlib.sha256(b'Hello' + bytes([10])).hexdigest()} public.bbcode\n"
               f"{hashlib.sha256(b'a: 1' + bytes([10])).hexdigest()} state.yaml\n").encode()
    assert seal.turn_code(SECRET, 3, "abc", files) == hmac.new(key, message, hashlib.sha256).hexdigest()


def test_codes_reveal_nothing_without_the_secret():
    """Keyed by the secret: the same files give unrelated codes under another
    secret, so a guess of a turn's content cannot be checked against a code."""
    files = {"state.yaml": b"murderer: lucy\n"}
    code = seal.turn_code(SECRET, 1, "x", files)
    assert seal.turn_code("another secret", 1, "x", files) != code
    assert seal.turn_code(SECRET, 1, "x", {"state.yaml": b"murderer: bob\n"}) != code
    plain = hashlib.sha256(seal.message(1, "x", files)).hexdigest()
    assert code != plain and SECRET not in code


def test_the_short_code_is_the_first_16_hex_digits_in_groups_of_4():
    assert seal.short("0123456789abcdef" + "f" * 48) == "0123-4567-89ab-cdef"


def test_a_post_is_sealed_without_its_own_code_and_a_players_lookalike_stays():
    rendered = b"Hi pbp#3/1111-2222-3333-4444\n[b]Sceau du tour 3[/b] : pbp#3/<pbp:seal>\nsha256:<pbp:commitment>\n"
    filled = seal.fill(rendered, "ab" * 32, "cd" * 32)
    assert filled == ("Hi pbp#3/1111-2222-3333-4444\n[b]Sceau du tour 3[/b] : pbp#3/abab-abab-abab-abab\n"
                      "sha256:" + "cd" * 32 + "\n").encode()
    assert seal.sealed_bytes("public.bbcode", filled) == seal.sealed_bytes("public.bbcode", rendered)
    assert seal.sealed_bytes("state.yaml", filled) == filled  # only posts hold codes
    # any other change to the post changes what is sealed
    assert seal.sealed_bytes("public.bbcode", filled.replace(b"Hi", b"Ho")) != \
        seal.sealed_bytes("public.bbcode", rendered)


# -- the posts and seals.yaml ------------------------------------------------------------

def test_posts_show_the_commitment_and_each_turns_code(played):
    codes = codes_of(played)
    commit = seal.commitment(SECRET)
    setup = (played / "turns/000/public.bbcode").read_text()
    assert f"[b]Engagement des dés[/b]\u00a0: sha256:{commit}\n" in setup
    assert setup.endswith(f"[b]Sceau du tour 0[/b]\u00a0: pbp#0/{seal.short(codes[0])}\n")
    public = (played / "turns/002/public.bbcode").read_text()
    assert public.endswith(f"\n\n[b]Sceau du tour 2[/b]\u00a0: pbp#2/{seal.short(codes[2])}\n")
    assert "sha256:" not in public
    gm = (played / "turns/002/gm.bbcode").read_text()
    assert f"[b]Sceau du tour 2[/b]\u00a0: pbp#2/{codes[2]}\n" in gm
    for folder in ("000", "001", "002"):
        for path in (played / "turns" / folder).rglob("*.bbcode"):
            assert "<pbp:" not in path.read_text() and SECRET not in path.read_text()
    assert yamlio.load_file(played / "seals.yaml") == {
        "commitment": commit, "turns": {n: {"printed": [codes[n]]} for n in (0, 1, 2)}}


def test_each_code_chains_on_the_previous_one(played):
    campaign = open_campaign(played)
    codes = codes_of(played)
    files = seal.turn_files(campaign.turn_dir(2))
    assert seal.turn_code(SECRET, 2, codes[1], files) == codes[2]
    assert seal.turn_code(SECRET, 2, "0" * 64, files) != codes[2]


def test_the_mj_report_lists_the_forced_rolls(played):
    gm = (played / "turns/001/gm.bbcode").read_text()
    assert "[b]Jets forcés ce tour[/b] (gm.yaml\u00a0; l'audit les montrera aux joueurs)\u00a0:\n\n" \
           "[list]\n[*]lucy.⁠piece\u00a0: 1d6 (5)\n[/list]\n" in gm
    assert "Jets forcés" not in (played / "turns/002/gm.bbcode").read_text()
    rolls = yamlio.load_file(played / "turns/001/rolls.yaml")
    assert rolls == [{"label": "lucy.piece", "expr": "1d6", "faces": [], "total": 5, "forced": True}]


def test_post_and_dry_run_print_the_archived_codes(played):
    r = pbp("post", "--turn", "1", cwd=played)
    assert r.output == (played / "turns/001/public.bbcode").read_text()
    assert pbp("post", "--turn", "1", "--gm", cwd=played).output == (played / "turns/001/gm.bbcode").read_text()
    write(played, "turns/003/orders/lucy.yaml", "player: lucy\nturn: 3\nactions:\n  - avancer: 1\n")
    dry = pbp("run", "--dry-run", cwd=played)
    assert dry.exit_code == 0
    assert pbp("run", "--no-commit", cwd=played).exit_code == 0
    code = codes_of(played)[3]
    assert f"[b]Sceau du tour 3[/b]\u00a0: pbp#3/{seal.short(code)}\n" in dry.output
    assert (played / "turns/003/public.bbcode").read_text() in dry.output


def test_an_honest_archive_verifies_and_status_says_nothing_of_seals(played):
    v = pbp("verify", cwd=played)
    assert v.exit_code == 0, v.output
    assert v.output.endswith("3 tours rejoués à l'identique.\n")
    assert "Tour " not in pbp("status", cwd=played).output


# -- when the archive changes ------------------------------------------------------------

def test_an_edited_old_turn_is_named_by_verify_and_status(played):
    before = codes_of(played)
    order = played / "turns/001/orders/lucy.yaml"
    order.write_text(order.read_text().replace("Lucy avance.", "Lucy recule."))
    after = codes_of(played)
    assert after[0] == before[0] and after[1] != before[1] and after[2] != before[2]
    expected = (f"Tour 1 : l'archive ne correspond plus au sceau que pbp a imprimé (pbp#1/{seal.short(before[1])}) ; "
                f"elle donne maintenant pbp#1/{seal.short(after[1])} (un fichier de ce tour ou d'un tour précédent "
                "a changé).\n"
                "Les sceaux des tours suivants ne sont plus ceux imprimés ou postés non plus (ils découlent de celui "
                "du tour 1) : 2.\n")
    v = pbp("verify", cwd=played)
    assert v.exit_code == 1
    assert "tour 1 : DIFFÉRENT (events.yaml, gm.bbcode, public.bbcode)\n" in v.output
    assert v.output.endswith(expected)
    assert pbp("status", cwd=played).output.endswith(expected)


def test_status_remembers_digests_and_still_sees_an_edit_of_the_same_size(played, monkeypatch):
    """pbp status takes the digest of a file unchanged since the last command from
    the user's cache; a file rewritten in place (same size, same modification
    time put back) has another change time, and is read again."""
    import os

    campaign = open_campaign(played)
    monkeypatch.setattr(usercache, "SETTLED_NS", 0)  # the files were just written: remembered all the same
    fresh = seal.archive_codes(campaign)
    assert seal.archive_codes(campaign, remembered=True) == fresh  # fills the cache
    opened = []
    real_open = open

    def counting_open(path, *args, **kwargs):
        opened.append(str(path))
        return real_open(path, *args, **kwargs)

    import builtins
    builtins.open = counting_open
    try:
        assert seal.archive_codes(campaign, remembered=True) == fresh
    finally:
        builtins.open = real_open
    assert not [p for p in opened if "/turns/" in p]  # no turn file read: every digest remembered
    order = played / "turns/001/orders/lucy.yaml"
    info = order.stat()
    text = order.read_text()
    assert "avance" in text
    order.write_text(text.replace("avance", "recule"))  # same length
    os.utime(order, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert order.stat().st_size == info.st_size and order.stat().st_mtime_ns == info.st_mtime_ns
    edited = seal.archive_codes(campaign, remembered=True)
    assert edited == seal.archive_codes(campaign)
    assert edited[0] == fresh[0] and edited[1] != fresh[1] and edited[2] != fresh[2]


def test_the_everyday_chain_looks_again_at_the_last_turns_files_and_at_every_state(played, monkeypatch):
    """What status, run and post cost does not grow with the campaign: every file
    of the last RECENT_TURNS turns is looked at again, an older turn's code is
    the one kept while its state.yaml is the same file; a state.yaml edited by
    hand is seen, and the codes are then the ones `pbp verify` computes."""
    import os

    campaign = open_campaign(played)
    monkeypatch.setattr(usercache, "SETTLED_NS", 0)
    monkeypatch.setattr(seal, "RECENT_TURNS", 1)
    fresh = seal.archive_codes(campaign)
    assert seal.archive_codes(campaign, remembered=True) == fresh  # keeps the chain
    listed = []
    real_scandir, real_listdir = os.scandir, os.listdir

    def counting_scandir(path="."):
        listed.append(os.fspath(path))
        return real_scandir(path)

    def counting_listdir(path="."):
        listed.append(os.fspath(path))
        return real_listdir(path)

    monkeypatch.setattr(os, "scandir", counting_scandir)
    monkeypatch.setattr(os, "listdir", counting_listdir)
    assert seal.archive_codes(campaign, remembered=True) == fresh
    turns = os.path.join(played, "turns")
    assert sorted(listed) == [turns, *(os.path.join(turns, "002", *sub) for sub in ((), ("orders",), ("private",)))]
    state = played / "turns/000/state.yaml"
    state.write_text(state.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    edited = seal.archive_codes(campaign, remembered=True)
    assert edited == seal.archive_codes(campaign)
    assert all(edited[n] != fresh[n] for n in (0, 1, 2))


def test_a_file_changed_moments_ago_is_not_remembered(played):
    campaign = open_campaign(played)
    kept: dict = {}
    seal.turn_digests(campaign.turn_dir(1), kept)
    assert kept == {}  # every file of the fixture was written under SETTLED_NS ago


def test_a_file_added_to_a_turn_changes_its_code(played):
    """The turn plays the same, but its code covers every file of its folder:
    the posts the replay writes show another code."""
    before = codes_of(played)
    write(played, "turns/002/notes.txt", "ajouté après coup\n")
    v = pbp("verify", cwd=played)
    assert v.exit_code == 1
    assert "tour 2 : DIFFÉRENT (gm.bbcode, public.bbcode)\n" in v.output
    assert f"Tour 2 : l'archive ne correspond plus au sceau que pbp a imprimé (pbp#2/{seal.short(before[2])})" \
        in v.output


def test_a_posted_turn_played_again_with_other_orders_is_flagged(played):
    posted = pbp("posted", "--turn", "2", "--no-commit", cwd=played)
    assert posted.exit_code == 0
    old = codes_of(played)[2]
    assert posted.output == f"Tour 2 : sceau posté enregistré (pbp#2/{seal.short(old)}) dans seals.yaml.\n"
    assert pbp("undo", "--no-commit", cwd=played).exit_code == 0
    write(played, "turns/002/orders/bob.yaml", "player: bob\nturn: 2\nactions:\n  - avancer: 1\n")
    assert pbp("run", "--no-commit", cwd=played).exit_code == 0
    new = codes_of(played)[2]
    assert new != old
    expected = (f"Tour 2 : le fil montre pbp#2/{seal.short(old)} (enregistré avec pbp posted), l'archive donne "
                f"maintenant pbp#2/{seal.short(new)} : les joueurs verront la différence à l'audit.\n")
    assert pbp("status", cwd=played).output.endswith(expected)
    v = pbp("verify", cwd=played)
    assert v.exit_code == 1 and v.output.endswith(expected)
    assert yamlio.load_file(played / "seals.yaml")["turns"][2] == {"printed": [old, new], "posted": old}


def test_a_turn_played_twice_before_posting_asks_which_code_was_posted(played):
    old = codes_of(played)[2]
    assert pbp("undo", "--no-commit", cwd=played).exit_code == 0
    write(played, "turns/002/orders/bob.yaml", "player: bob\nturn: 2\nactions:\n  - avancer: 1\n")
    assert pbp("run", "--no-commit", cwd=played).exit_code == 0
    new = codes_of(played)[2]
    notice = (f"Tour 2 : pbp a imprimé 2 sceaux différents ({seal.short(old)}, {seal.short(new)}) ; le fil doit "
              "montrer le dernier. Une fois posté : pbp posted --turn 2.\n")
    v = pbp("verify", cwd=played)
    assert v.exit_code == 0 and v.output.endswith(notice + "3 tours rejoués à l'identique.\n")  # a notice
    refused = pbp("posted", "--turn", "2", "0000-1111-2222-3333", "--no-commit", cwd=played)
    assert refused.exit_code == 1
    assert refused.stderr == ("Tour 2 : « 0000-1111-2222-3333 » n'est aucun des sceaux que pbp a imprimés pour ce "
                              f"tour. Valeurs possibles : {seal.short(old)}, {seal.short(new)}.\n")
    assert pbp("posted", "--turn", "2", f"pbp#2/{seal.short(new)}", "--no-commit", cwd=played).exit_code == 0
    assert "Tour 2" not in pbp("status", cwd=played).output


def test_an_undone_posted_turn_is_flagged(played):
    code = codes_of(played)[2]
    assert pbp("posted", "--no-commit", cwd=played).exit_code == 0
    assert pbp("undo", "--no-commit", cwd=played).exit_code == 0
    assert pbp("status", cwd=played).output.endswith(
        f"Tour 2 : posté avec le sceau pbp#2/{seal.short(code)}, mais il n'est plus dans l'archive (annulé) : "
        "les joueurs le verront à l'audit.\n")


def test_a_changed_secret_is_said_in_french_and_english(played):
    config = played / "secret.yaml"
    config.write_text(config.read_text().replace("secret: s3cret", "secret: autre"))
    v = pbp("verify", cwd=played)
    assert v.exit_code == 1
    assert (f"Le secret des dés a changé depuis la mise en place : le post du tour 0 montre l'engagement "
            f"sha256:{seal.commitment(SECRET)}, le secret de secret.yaml donne sha256:{seal.commitment('autre')}. "
            "Tous les sceaux changent, et un audit le dira.\n") in v.output
    (played / "campaign.yaml").write_text((played / "campaign.yaml").read_text() + "lang: en\n")
    v = pbp("verify", cwd=played)
    assert (f"The dice secret changed since set-up: turn 0's post shows the commitment sha256:{seal.commitment(SECRET)}"
            f", secret.yaml's secret gives sha256:{seal.commitment('autre')}. Every code changes, and an audit "
            "will say so.\n") in v.output


def test_a_broken_seals_file_is_named_and_status_still_shows(played):
    (played / "seals.yaml").write_text("- a list\n")
    r = pbp("status", cwd=played)
    assert r.exit_code == 0
    assert "bob" in r.output
    assert r.stderr == ("seals.yaml: n'a pas la forme que pbp écrit (commitment: …, turns: {N: {printed: [codes], "
                        "posted: code}}) : remettez-le depuis git (git checkout -- seals.yaml).\n")
    v = pbp("verify", cwd=played)
    assert v.exit_code == 1 and v.stderr.startswith("seals.yaml: n'a pas la forme")


def test_a_players_lookalike_codes_change_nothing(toy_campaign):
    """Roleplay that looks like a seal (or like its placeholder) is quoted as
    written, and the archive still replays and audits to the byte."""
    assert pbp("setup", "--no-commit", cwd=toy_campaign).exit_code == 0
    fake = f"pbp#1/1111-2222-3333-4444 pbp#1/<pbp:seal> sha256:{'0' * 64}"
    write(toy_campaign, "turns/001/orders/lucy.yaml", f"player: lucy\nturn: 1\nactions: []\nroleplay: \"{fake}\"\n")
    assert pbp("run", "--no-commit", cwd=toy_campaign).exit_code == 0
    public = (toy_campaign / "turns/001/public.bbcode").read_text()
    assert "pbp#1/1111-2222-3333-4444 pbp#1/<\u200bpbp:\u2060seal> sha256:" + "0" * 64 in public
    code = codes_of(toy_campaign)[1]
    assert public.count(seal.short(code)) == 1
    assert pbp("verify", cwd=toy_campaign).exit_code == 0


@pytest.mark.parametrize("lang,fmt,commitment_line,seal_line", [
    ("en", "bbcode", "[b]Dice commitment[/b]: sha256:{c}\n", "[b]Seal of turn {n}[/b]: pbp#{n}/{s}\n"),
    ("fr", "markdown", "**Engagement des dés**\u00a0: sha256:{c}\n", "**Sceau du tour {n}**\u00a0: pbp#{n}/{s}\n"),
])
def test_the_seals_in_english_and_in_markdown(toy_campaign, lang, fmt, commitment_line, seal_line):
    config = toy_campaign / "campaign.yaml"
    config.write_text(config.read_text() + f"lang: {lang}\nformat: {fmt}\n")
    assert pbp("setup", "--no-commit", cwd=toy_campaign).exit_code == 0
    assert pbp("run", "--no-commit", "--no-orders", cwd=toy_campaign).exit_code == 0
    codes = codes_of(toy_campaign)
    ext = "md" if fmt == "markdown" else "bbcode"
    setup = (toy_campaign / f"turns/000/public.{ext}").read_text()
    assert commitment_line.format(c=seal.commitment(SECRET)) in setup
    assert setup.endswith(seal_line.format(n=0, s=seal.short(codes[0])))
    assert (toy_campaign / f"turns/001/public.{ext}").read_text().endswith(
        "\n\n" + seal_line.format(n=1, s=seal.short(codes[1])))
    assert seal_line.format(n=1, s=codes[1]) in (toy_campaign / f"turns/001/gm.{ext}").read_text()


def test_a_turns_files_are_its_regular_files_hidden_and_unfinished_ones_left_out(tmp_path):
    """What a turn's code covers (seal.turn_files, turn_digests): every regular
    file under the turn folder, a link to a file followed; not a hidden file
    or folder, not a *.tmp left by an interrupted write, not a `pbp preview`
    page, not what a link to a folder holds."""
    turn = tmp_path / "turns" / "003"
    write(turn, "state.yaml", "a: 1\n")
    write(turn, "orders/lucy.yaml", "actions: []\n")
    write(turn, "private/deep/x.md", "x")
    write(turn, ".hidden", "no")
    write(turn, ".git/config", "no")
    write(turn, "events.yaml.tmp", "no")
    write(turn, "preview.html", "no")  # pbp preview's pages, never archived
    write(turn, "preview-gm.html", "no")
    write(tmp_path, "elsewhere/y.txt", "y")
    (turn / "lien.txt").symlink_to(tmp_path / "elsewhere" / "y.txt")
    (turn / "dossier").symlink_to(tmp_path / "elsewhere")
    (turn / "cassé").symlink_to(tmp_path / "absent")
    files = seal.turn_files(turn)
    assert files == {"lien.txt": b"y", "orders/lucy.yaml": b"actions: []\n", "private/deep/x.md": b"x",
                     "state.yaml": b"a: 1\n"}
    assert set(seal.turn_digests(turn)) == set(files)


# -- pbp preview pages -----------------------------------------------------------------------

PREVIEWS = ([], ["--gm"], ["--player", "lucy"])


def preview_pages(root):
    return sorted(p.relative_to(root / "turns").as_posix() for p in (root / "turns").glob("*/preview*.html"))


def test_preview_pages_are_no_part_of_a_turns_code(played):
    """`pbp preview` writes its pages beside the turn's posts and git never
    archives them: no code covers them, so a page written after the turn was
    posted changes nothing, nor does a page the next turn finds there."""
    assert pbp("posted", "--no-commit", cwd=played).exit_code == 0
    before = codes_of(played)
    for who in PREVIEWS:
        assert pbp("preview", *who, cwd=played).exit_code == 0
    assert preview_pages(played) == ["002/preview-gm.html", "002/preview-lucy.html", "002/preview.html"]
    assert codes_of(played) == before
    v = pbp("verify", cwd=played)
    assert v.exit_code == 0, v.output
    assert v.output.endswith("3 tours rejoués à l'identique.\n")
    assert "Tour 2" not in pbp("status", cwd=played).output
    write(played, "turns/003/orders/lucy.yaml", "player: lucy\nturn: 3\nactions:\n  - avancer: 1\n")
    assert pbp("run", "--no-commit", cwd=played).exit_code == 0  # the pages of turn 2 still there
    for page in preview_pages(played):
        (played / "turns" / page).unlink()
    v = pbp("verify", cwd=played)  # turn 3's code did not chain on them
    assert v.exit_code == 0, v.output
    assert v.output.endswith("4 tours rejoués à l'identique.\n")


def test_undo_removes_the_preview_pages_of_the_turns_it_undoes(played):
    """They show a turn that is no more; the turns kept keep theirs."""
    for who in PREVIEWS:
        assert pbp("preview", *who, cwd=played).exit_code == 0
        assert pbp("preview", "--turn", "1", *who, cwd=played).exit_code == 0
    assert pbp("preview", "--turn", "0", cwd=played).exit_code == 0
    assert pbp("undo", "--to", "0", "--no-commit", cwd=played).exit_code == 0
    assert preview_pages(played) == ["000/preview.html"]
    assert pbp("run", "--no-commit", cwd=played).exit_code == 0
    assert preview_pages(played) == ["000/preview.html"]
    assert pbp("verify", cwd=played).exit_code == 0


def test_every_preview_page_name_is_left_out_of_the_seal():
    from pbp.render import preview

    for template, player in (("public", None), ("gm", None), ("private", "lucy"), ("private", "Zoé_2")):
        assert seal.is_preview_page(preview.file_name(template, player))
    assert not seal.is_preview_page("private/preview.html")  # pbp writes none there: git archives it
    assert not seal.is_preview_page("public.bbcode") and not seal.is_preview_page("apercu.html")


def test_the_thread_shows_the_codes_of_its_seal_lines_only():
    """seal.find_codes: a line of its own as seal.j2 writes it, in the posts'
    source or copied from the forum's page, never a code elsewhere."""
    code, full, commit = "abcd-ef01-2345-6789", "ab" * 32, "cd" * 32
    thread = "\r\n".join([
        f"[b]Sceau du tour 1[/b]\u00a0: pbp#1/{code}",            # BBCode source, French
        f"**Seal of turn 2**: pbp#2/{full}  ",                     # Markdown source, English, the MJ's report
        f"  Sceau du tour 3 : pbp#3/{code.upper()}",               # a page copied as text
        f"[B]Sceau du tour 4[/B]\u202f:pbp#4/{code}",              # XenForo's capitals, a narrow no-break space
        unicodedata.normalize("NFD", f"Engagement des dés : sha256:{commit}"),
        f"Kira : pbp#5/{code}",                                    # not a seal line's words
        f"Sceau du tour 6 : pbp#6/{code} !",                       # more on the line
        f"Sceau du tour 7 : pbp#8/{code}",                         # two turns
        f"> **Sceau du tour 9** : pbp#9/{code}",                   # a Markdown quote
        f"[\u200bb]Sceau du tour 10[/b] : pbp#10/{code}",           # player text: its `[` broken
        f"\\*\\*Sceau du tour 11\\*\\* : pbp#11/{code}",           # player text: its `*` escaped
        f"[b]Sceau du tour 12** : pbp#12/{code}",                  # not bold
        f"Le sceau pbp#13/{code} et sha256:{'e' * 64}",
    ])
    found = seal.find_codes(thread)
    assert found.codes == {1: [code], 2: [full], 3: [code], 4: [code]}
    assert found.commitments == [commit]


@pytest.mark.parametrize("turns", [
    {},
    {0: {"printed": ["ab" * 32]}, 1: {"printed": ["c0" * 32, "0d" * 32], "posted": "0d" * 32}, 2: {"printed": []}},
    {7: {"printed": ["1" * 64]}},  # all digits: a number to YAML, written by PyYAML (quoted)
    {7: {"printed": ["0b" + "01" * 31]}},  # binary digits after 0b: a number to YAML too
    {7: {"printed": ["à la main"], "posted": "Sceau: pbp#7/abcd"}},  # a file edited by hand
])
def test_seals_yaml_is_written_as_pyyaml_writes_it(turns):
    for commit in (None, "9f" * 32):
        data = {"commitment": commit, "turns": turns}
        assert seal_log.seals_yaml(data) == yamlio.dumps(data)
        assert yamlio.loads(seal_log.seals_yaml(data)) == data
