"""`pbp reveal` and `pbp audit` (pbp/trust/audit.py): an honest archive passes, and any
change to a published game is found and named."""

import io
import os
import sys
import tarfile

import pytest

from pbp.base import yamlio
from pbp.engine import seal
from pbp.engine.campaign import open_campaign
from pbp.render.render import package_dir
from tests.helpers import copy_example, pbp, write

EXAMPLES = sorted(d.name for d in package_dir("campaigns").iterdir() if (d / "campaign.yaml").exists())


def thread_of(root, upto=None) -> str:
    """The public posts of a campaign, as a player pastes the thread into a file."""
    posts = sorted((root / "turns").glob("*/public.*"))
    return "\n\n".join(p.read_text(encoding="utf-8") for p in posts if upto is None or int(p.parent.name) <= upto)


def reveal(root, tmp_path, name="bundle.tar.gz"):
    bundle = tmp_path / name
    r = pbp("reveal", "--before-end", "--output", bundle, cwd=root)
    assert r.exit_code == 0, r.output
    return bundle


def audit(bundle, tmp_path, thread=None, *more):
    args = ["audit", bundle]
    if thread is not None:
        (tmp_path / "fil.txt").write_text(thread, encoding="utf-8")
        args += ["--posts", tmp_path / "fil.txt"]
    return pbp(*args, *more)


@pytest.fixture
def played(toy_campaign):
    assert pbp("setup", "--no-commit", cwd=toy_campaign).exit_code == 0
    write(toy_campaign, "turns/001/orders/lucy.yaml", "player: lucy\nturn: 1\nactions:\n  - avancer: 1\n"
                                                      "  - pile_ou_face\nroleplay: Lucy avance.\n")
    write(toy_campaign, "turns/001/gm.yaml", "rolls: {lucy.piece: 5}\n")
    assert pbp("run", "--no-commit", cwd=toy_campaign).exit_code == 0
    write(toy_campaign, "turns/002/orders/bob.yaml", "player: bob\nturn: 2\nactions:\n  - pile_ou_face\n")
    assert pbp("run", "--no-commit", cwd=toy_campaign).exit_code == 0
    return toy_campaign


def short_codes(root):
    return {n: seal.short(c) for n, c in seal.archive_codes(open_campaign(root)).items()}


# -- honest archives ----------------------------------------------------------------------

@pytest.mark.parametrize("name", EXAMPLES)
def test_an_honest_example_passes_the_audit_with_its_thread(tmp_path, name):
    root = copy_example(name, tmp_path)
    bundle = reveal(root, tmp_path)
    r = audit(bundle, tmp_path, thread_of(root))
    assert r.exit_code == 0, r.output
    turns = len(open_campaign(root).resolved_turns())
    codes = short_codes(root)
    for n in range(turns):
        assert f"identique, sceau pbp#{n}/{codes[n]} comme dans le fil.\n" in r.output \
            or f"identical, code pbp#{n}/{codes[n]} as in the thread.\n" in r.output
    assert r.output.endswith((f"Verdict : tout concorde ({turns} tours).\n",
                              f"Verdict: everything matches ({turns} turns).\n"))


def test_the_audit_says_everything_in_order(played, tmp_path):
    codes = short_codes(played)
    commit = seal.commitment("s3cret")
    r = audit(reveal(played, tmp_path), tmp_path, thread_of(played))
    assert r.exit_code == 0
    assert r.output == (
        "Archive révélée : « Essai » (toy), 3 tours (mise en place comprise), faite avec pbp 0.1.0.\n"
        "Le secret des dés ne fait que 6 caractères : pendant la partie, on pouvait le deviner à partir de "
        "l'engagement.\n"
        f"Engagement des dés : le secret révélé donne bien sha256:{commit} (le post du tour 0, seals.yaml, le fil).\n"
        f"Tour 0 : identique, sceau pbp#0/{codes[0]} comme dans le fil.\n"
        f"Tour 1 : identique, sceau pbp#1/{codes[1]} comme dans le fil.\n"
        f"Tour 2 : identique, sceau pbp#2/{codes[2]} comme dans le fil.\n"
        "Jets fixés à la main par le MJ (gm.yaml), 1 en tout ; tous les autres dés viennent du secret :\n"
        "  tour 1, lucy.piece : 1d6 (5) (le secret aurait donné 1d6 (3))\n"
        "Verdict : tout concorde (3 tours).\n")


def test_the_seeded_value_beside_a_forced_roll_is_the_one_the_seed_gives(played, tmp_path):
    """Without the forced roll, the same turn rolls what the audit said the secret gives."""
    (played / "turns/001/gm.yaml").unlink()
    assert pbp("undo", "--to", "0", "--no-commit", cwd=played).exit_code == 0
    assert pbp("run", "--no-commit", cwd=played).exit_code == 0
    assert yamlio.load_file(played / "turns/001/rolls.yaml") == [
        {"label": "lucy.piece", "expr": "1d6", "faces": [3], "total": 3}]


def test_the_audit_speaks_english_for_an_english_campaign(played, tmp_path):
    config = played / "campaign.yaml"
    config.write_text(config.read_text() + "lang: en\n")
    r = audit(reveal(played, tmp_path), tmp_path)
    assert r.exit_code == 0
    assert "Rolls the MJ set by hand (gm.yaml), 1 in all; every other die comes from the secret:\n" \
           "  turn 1, lucy.piece: 1d6 (5) (the secret would have given 1d6 (3))\n" in r.output
    assert r.output.endswith("Verdict: everything matches (3 turns).\n")


# -- the bundle ---------------------------------------------------------------------------

def test_the_bundle_holds_the_archive_and_nothing_else_always_the_same_bytes(played, tmp_path):
    write(played, "notes-du-mj.txt", "à ne pas publier\n")
    write(played, "turns/002/.brouillon.yaml", "caché\n")
    write(played, "turns/002/state.yaml.x.tmp", "reste d'écriture\n")
    first = reveal(played, tmp_path, "a.tar.gz")
    second = reveal(played, tmp_path, "b.tar.gz")
    assert first.read_bytes() == second.read_bytes()
    with tarfile.open(first) as tar:
        names = tar.getnames()
        members = tar.getmembers()
        info = yamlio.loads(tar.extractfile("pbp-reveal.yaml").read().decode())
    assert "campaign/notes-du-mj.txt" not in names and not any(".brouillon" in n or ".tmp" in n for n in names)
    assert names[:4] == ["campaign/campaign.yaml", "campaign/seals.yaml", "campaign/secret.yaml",
                         "campaign/turns/000/events.yaml"]
    assert names[-1] == "pbp-reveal.yaml"
    assert "campaign/turns/001/orders/lucy.yaml" in names and "campaign/turns/001/gm.yaml" in names
    assert all(m.mtime == 0 and m.uid == 0 and m.uname == "" and m.isfile() for m in members)
    assert info == {"format": 1, "pbp": "0.1.0", "title": "Essai", "ruleset": "toy",
                    "commitment": seal.commitment("s3cret"), "turns": 2}


def test_reveal_waits_for_the_end_of_the_game_and_never_overwrites(played, tmp_path):
    r = pbp("reveal", "--output", tmp_path / "x.tar.gz", cwd=played)
    assert r.exit_code == 1
    assert r.stderr == ("La partie n'est pas finie (dernier tour : 2) : révéler l'archive donnerait le secret des dés "
                        "des tours à venir. --before-end pour la révéler quand même.\n")
    default = pbp("reveal", "--before-end", cwd=played)
    assert default.exit_code == 0
    assert (played.parent / "toy.reveal.tar.gz").is_file()  # beside the campaign, never inside its archive
    assert default.output.startswith(f"Archive révélée : {played.parent / 'toy.reveal.tar.gz'} (")
    bundle = reveal(played, tmp_path)
    again = pbp("reveal", "--before-end", "--output", bundle, cwd=played)
    assert again.exit_code == 1
    assert again.stderr == f"{bundle}: existe déjà : choisissez un autre --output, ou supprimez ce fichier.\n"


def _hostile_bundle(path, member: tarfile.TarInfo, data=b""):
    raw = io.BytesIO()
    with tarfile.open(path, "w:gz") as tar:
        ok = tarfile.TarInfo("campaign/campaign.yaml")
        text = b"ruleset: toy\nsecret: s3cret\nplayers: {lucy: Lucy}\n"
        ok.size = len(text)
        tar.addfile(ok, io.BytesIO(text))
        member.size = len(data)
        tar.addfile(member, io.BytesIO(data))
    return raw


@pytest.mark.parametrize("name,kind", [("../evil.txt", tarfile.REGTYPE), ("/tmp/evil.txt", tarfile.REGTYPE),
                                       ("campaign/turns/lien", tarfile.SYMTYPE), ("ailleurs/x.yaml", tarfile.REGTYPE),
                                       ("campaign/fifo", tarfile.FIFOTYPE)])
def test_a_hostile_bundle_is_refused_by_name(tmp_path, name, kind):
    member = tarfile.TarInfo(name)
    member.type = kind
    if kind == tarfile.SYMTYPE:
        member.linkname = "/etc/passwd"
    bundle = tmp_path / "hostile.tar.gz"
    _hostile_bundle(bundle, member, b"x" if kind == tarfile.REGTYPE else b"")
    r = pbp("audit", bundle)
    assert r.exit_code == 1
    assert r.stderr == (f"{bundle}: l'archive contient « {name} », qui n'est pas un simple fichier sous campaign/ : "
                        "pbp reveal n'écrit rien de tel, l'audit s'arrête là.\n")
    assert not (tmp_path / "evil.txt").exists()


def test_a_file_that_is_no_bundle_is_refused(tmp_path):
    bundle = tmp_path / "fil.txt"
    bundle.write_text("pas une archive")
    r = pbp("audit", bundle)
    assert r.exit_code == 1
    assert r.stderr.startswith(f"{bundle}: illisible comme archive révélée (un .tar.gz écrit par pbp reveal) : ")
    missing = pbp("audit", tmp_path / "absent.tar.gz")
    assert missing.exit_code == 1 and "absent.tar.gz" in missing.stderr


def test_a_bundles_own_templates_are_replayed_sandboxed(played, tmp_path):
    # a template that reaches for Python: refused by the sandbox, named with its line
    write(played, "templates/public.j2", "{{ cycler.__init__.__globals__.os.system('touch pwned') }}\n")
    bundle = reveal(played, tmp_path)
    r = audit(bundle, tmp_path)
    assert r.exit_code == 1, r.output
    assert ("L'archive apporte ses propres modèles (templates/) : des données, rendues dans un bac à sable comme "
            "tout modèle ; les posts sont rejoués avec eux.\n") in r.output
    assert ("Tour 1 : DIFFÈRE\n  - le tour ne se rejoue pas : templates/public.j2:1: modèle refusé : un modèle est "
            "une donnée, rendue dans un bac à sable, et celui-ci va au-delà (access to attribute '__init__' of 'type' "
            "object is unsafe).") in r.output
    assert not list(tmp_path.rglob("pwned"))
    gone = audit(bundle, tmp_path, None, "--trust-templates")
    assert gone.exit_code == 2 and "--trust-templates" in gone.stderr


# -- tampering ----------------------------------------------------------------------------

@pytest.mark.parametrize("rel,old,new,files", [
    ("turns/001/orders/lucy.yaml", "Lucy avance.", "Lucy recule.", "events.yaml, gm.bbcode, public.bbcode"),
    ("turns/001/rolls.yaml", "total: 5", "total: 6", "rolls.yaml"),
    ("turns/001/public.bbcode", "Lucy avance.", "Lucy recule.", "public.bbcode"),
    ("turns/001/private/lucy.bbcode", "1", "2", "private/lucy.bbcode"),
])
def test_any_byte_edited_in_an_old_turn_is_found_and_named(played, tmp_path, rel, old, new, files):
    thread = thread_of(played)
    codes = short_codes(played)
    path = played / rel
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new, 1))
    after = short_codes(played)
    r = audit(reveal(played, tmp_path), tmp_path, thread)
    assert r.exit_code == 1
    assert (f"Tour 1 : DIFFÈRE\n"
            f"  - rejoué, le tour ne redonne pas ces fichiers de l'archive : {files}\n"
            f"  - le fil montre {codes[1]}, l'archive donne {after[1]}\n"
            f"  - pbp avait imprimé {codes[1]} (seals.yaml), l'archive donne {after[1]}\n"
            f"Tour 2 : DIFFÈRE\n"
            f"  - seuls les sceaux affichés dans gm.bbcode, public.bbcode changent : un fichier scellé a changé, "
            f"dans ce tour ou un tour précédent (les fichiers rejoués, eux, sont identiques)\n"
            f"  - le fil montre {codes[2]}, l'archive donne {after[2]}\n"
            f"  - pbp avait imprimé {codes[2]} (seals.yaml), l'archive donne {after[2]}\n") in r.output
    assert f"Tour 0 : identique, sceau pbp#0/{codes[0]} comme dans le fil.\n" in r.output
    assert r.output.endswith("Verdict : 2 problèmes, détaillés plus haut.\n")


def test_a_published_turn_played_again_with_other_orders_is_found_through_the_thread(played, tmp_path):
    """The MJ undoes turn 2 after posting it, changes Bob's orders and plays it
    again: the archive is consistent again, but the thread keeps the old code."""
    thread = thread_of(played)
    codes = short_codes(played)
    assert pbp("undo", "--no-commit", cwd=played).exit_code == 0
    write(played, "turns/002/orders/bob.yaml", "player: bob\nturn: 2\nactions:\n  - avancer: 2\n")
    assert pbp("run", "--no-commit", cwd=played).exit_code == 0
    assert pbp("verify", cwd=played).exit_code == 0  # replays to the byte: only the thread can tell
    (played / "seals.yaml").unlink()  # a cheating MJ hides what pbp printed
    after = short_codes(played)
    r = audit(reveal(played, tmp_path), tmp_path, thread)
    assert r.exit_code == 1
    assert f"Tour 1 : identique, sceau pbp#1/{codes[1]} comme dans le fil.\n" in r.output
    assert f"Tour 2 : DIFFÈRE\n  - le fil montre {codes[2]}, l'archive donne {after[2]}\n" in r.output
    assert r.output.endswith("Verdict : 1 problème, détaillé plus haut.\n")


def test_a_changed_secret_is_found(played, tmp_path):
    thread = thread_of(played)
    config = played / "secret.yaml"
    config.write_text(config.read_text().replace("secret: s3cret", "secret: un-autre-secret-bien-long"))
    r = audit(reveal(played, tmp_path), tmp_path, thread)
    assert r.exit_code == 1
    now, was = seal.commitment("un-autre-secret-bien-long"), seal.commitment("s3cret")
    for where in ("le post du tour 0", "seals.yaml", "le fil"):
        assert (f"Engagement des dés DIFFÉRENT : {where} montre sha256:{was}, le secret révélé donne sha256:{now} — "
                "le secret n'est pas celui de la mise en place.\n") in r.output
    assert "Tour 0 : DIFFÈRE\n" in r.output


def test_a_thread_showing_an_undone_turn_or_missing_codes_is_said(played, tmp_path):
    thread = thread_of(played)
    codes = short_codes(played)
    assert pbp("undo", "--no-commit", cwd=played).exit_code == 0
    r = audit(reveal(played, tmp_path), tmp_path, thread)
    assert r.exit_code == 1
    assert (f"Le fil montre un sceau du tour 2 ({codes[2]}), un tour que l'archive n'a pas (annulé ?).\n"
            in r.output)
    partial = audit(reveal(played, tmp_path, "b.tar.gz"), tmp_path, thread_of(played, upto=0))
    assert partial.exit_code == 0
    assert "Tour 1 : son sceau n'est pas dans le fil collé.\n" in partial.output


def test_a_players_lookalike_code_in_the_thread_does_not_hide_the_real_one(played, tmp_path):
    codes = short_codes(played)
    thread = thread_of(played) + "\n\nJoueur farceur : pbp#2/0000-0000-0000-0000\n"
    r = audit(reveal(played, tmp_path), tmp_path, thread)
    assert r.exit_code == 0
    assert f"Tour 2 : identique, sceau pbp#2/{codes[2]} comme dans le fil.\n" in r.output


def test_a_file_slipped_into_an_old_turn_is_named(played, tmp_path):
    thread = thread_of(played)
    codes = short_codes(played)
    write(played, "turns/001/ajout.txt", "glissé après coup\n")
    after = short_codes(played)
    r = audit(reveal(played, tmp_path), tmp_path, thread)
    assert r.exit_code == 1
    assert ("Tour 1 : DIFFÈRE\n"
            "  - seuls les sceaux affichés dans gm.bbcode, public.bbcode changent : un fichier scellé a changé, dans ce "
            "tour ou un tour précédent (les fichiers rejoués, eux, sont identiques)\n"
            "  - le dossier du tour contient des fichiers que pbp ne lit ni n'écrit : ajout.txt\n"
            f"  - le fil montre {codes[1]}, l'archive donne {after[1]}\n") in r.output


@pytest.fixture
def played_the_old_way(toy_campaign, monkeypatch):
    """The toy campaign played by a pbp from before rolls were given by label:
    its events.yaml holds each roll whole."""
    from pbp.engine import turn

    monkeypatch.setattr(turn, "stored_form", lambda events, log: [e.to_dict() for e in events])
    assert pbp("setup", "--no-commit", cwd=toy_campaign).exit_code == 0
    write(toy_campaign, "turns/001/orders/lucy.yaml", "player: lucy\nturn: 1\nactions:\n  - pile_ou_face\n")
    write(toy_campaign, "turns/001/gm.yaml", "rolls: {lucy.piece: 5}\n")
    assert pbp("run", "--no-commit", cwd=toy_campaign).exit_code == 0
    monkeypatch.undo()
    assert "label: lucy.piece" in (toy_campaign / "turns/001/events.yaml").read_text()
    return toy_campaign


def test_verify_and_the_audit_replay_a_turn_alike(played_the_old_way, tmp_path):
    """One replay for both (pbp/engine/replay.py): a turn `pbp verify` accepts,
    the audit accepts; a tampered one both refuse, naming the same files."""
    root = played_the_old_way
    assert pbp("verify", cwd=root).exit_code == 0
    r = audit(reveal(root, tmp_path), tmp_path, thread_of(root))
    assert r.exit_code == 0, r.output
    assert "Tour 1 : identique" in r.output
    rolls = root / "turns/001/rolls.yaml"
    rolls.write_text(rolls.read_text().replace("total: 5", "total: 6", 1))
    verified = pbp("verify", cwd=root)
    assert verified.exit_code == 1
    assert "tour 1 : DIFFÉRENT (rolls.yaml)\n" in verified.output
    audited = audit(reveal(root, tmp_path, "b.tar.gz"), tmp_path, thread_of(root))
    assert audited.exit_code == 1
    assert ("Tour 1 : DIFFÈRE\n"
            "  - rejoué, le tour ne redonne pas ces fichiers de l'archive : rolls.yaml\n") in audited.output


# -- pbp preview pages ----------------------------------------------------------------------

def test_preview_pages_stay_out_of_the_bundle_and_the_audit(played, tmp_path):
    thread = thread_of(played)
    for who in ([], ["--gm"], ["--player", "lucy"], ["--turn", "1"]):
        assert pbp("preview", *who, cwd=played).exit_code == 0
    bundle = reveal(played, tmp_path)
    with tarfile.open(bundle) as tar:
        assert not [n for n in tar.getnames() if "preview" in n]
    r = audit(bundle, tmp_path, thread)
    assert r.exit_code == 0, r.output
    assert "ne lit ni n'écrit" not in r.output
    assert r.output.endswith("Verdict : tout concorde (3 tours).\n")


# -- only the seal lines of the thread count ------------------------------------------------

def page_copy(thread: str, fmt: str = "bbcode") -> str:
    """The thread as a player gets it by copying the forum's page as text: the
    posts rendered by a forum's renderer (pbp preview's), tags gone, no-break
    spaces made spaces, Windows line endings."""
    import html
    import re

    from pbp.render import preview
    from tests.helpers import needs

    needs("bbcode" if fmt == "bbcode" else "markdown_it")
    shown = preview.post_html(thread, fmt)
    shown = re.sub(r"<br\s*/?>|</(?:p|li|blockquote|div|h\d)>", "\n", shown)
    text = html.unescape(re.sub(r"<[^>]+>", "", shown)).replace("\u00a0", " ")
    return text.replace("\n", "\r\n")


def with_roleplay(played, roleplay: str):
    """Turn 3 played, Lucy's roleplay as given (it goes into the public post)."""
    write(played, "turns/003/orders/lucy.yaml",
          {"player": "lucy", "turn": 3, "actions": [{"avancer": 1}], "roleplay": roleplay})
    assert pbp("run", "--no-commit", cwd=played).exit_code == 0


@pytest.mark.parametrize("copied", [False, True], ids=["source", "page"])
def test_a_code_in_a_players_roleplay_is_not_a_seal_of_the_thread(played, tmp_path, copied):
    """A player quoting code-like text in a public post makes an honest MJ's audit fail nothing."""
    with_roleplay(played, "Lucy grave pbp#99/0000-0000-0000-0000 sur le mur.\npbp#1/0000-0000-0000-0000\n"
                          f"sha256:{'0' * 64}\n")
    codes = short_codes(played)
    thread = thread_of(played)
    assert "pbp#99/0000-0000-0000-0000" in thread
    r = audit(reveal(played, tmp_path), tmp_path, page_copy(thread) if copied else thread)
    assert r.exit_code == 0, r.output
    assert "pbp#99" not in r.output and "0000-0000" not in r.output
    assert f"Tour 1 : identique, sceau pbp#1/{codes[1]} comme dans le fil.\n" in r.output
    assert f"Tour 3 : identique, sceau pbp#3/{codes[3]} comme dans le fil.\n" in r.output
    assert r.output.endswith("Verdict : tout concorde (4 tours).\n")


@pytest.mark.parametrize("copied", [False, True], ids=["source", "page"])
def test_a_seal_line_that_differs_is_found_though_a_roleplay_quotes_the_archives_code(played, tmp_path, copied):
    """The thread's seal line of turn 1 shows another code than the archive (a
    turn changed after it was posted); a later roleplay quotes the archive's
    code, inline or as a whole line: the turn still differs."""
    codes = short_codes(played)
    with_roleplay(played, f"Le vrai sceau est pbp#1/{codes[1]}, dit Lucy.\nSceau du tour 1 : pbp#1/{codes[1]}\n")
    codes = short_codes(played)
    thread = thread_of(played)
    seal_line = f"[b]Sceau du tour 1[/b]\u00a0: pbp#1/{codes[1]}\n"
    assert thread.count(seal_line) == 1
    thread = thread.replace(seal_line, seal_line.replace(codes[1], "1111-2222-3333-4444"))
    r = audit(reveal(played, tmp_path), tmp_path, page_copy(thread) if copied else thread)
    assert r.exit_code == 1
    assert f"Tour 1 : DIFFÈRE\n  - le fil montre 1111-2222-3333-4444, l'archive donne {codes[1]}\n" in r.output
    assert f"Tour 2 : identique, sceau pbp#2/{codes[2]} comme dans le fil.\n" in r.output
    assert r.output.endswith("Verdict : 1 problème, détaillé plus haut.\n")


def test_a_players_seal_line_in_bold_stays_roleplay(played, tmp_path):
    """Player text cannot write the seal line as the posts' source has it: each
    `[` of it is broken (BBCode), its `*` escaped and its lines quoted (Markdown)."""
    forged = "[b]Sceau du tour 1[/b] : pbp#1/0000-0000-0000-0000\n**Sceau du tour 2** : pbp#2/0000-0000-0000-0000\n"
    with_roleplay(played, forged)
    r = audit(reveal(played, tmp_path), tmp_path, thread_of(played))
    assert r.exit_code == 0, r.output
    assert r.output.endswith("Verdict : tout concorde (4 tours).\n")


@pytest.mark.parametrize("copied", [False, True], ids=["source", "page"])
def test_the_seal_lines_of_a_markdown_thread_in_english(toy_campaign, tmp_path, copied):
    config = toy_campaign / "campaign.yaml"
    config.write_text(config.read_text() + "lang: en\nformat: markdown\n")
    assert pbp("setup", "--no-commit", cwd=toy_campaign).exit_code == 0
    forged = "**Seal of turn 0**: pbp#0/0000-0000-0000-0000\n[b]Seal of turn 0[/b]: pbp#0/0000-0000-0000-0000\n"
    write(toy_campaign, "turns/001/orders/lucy.yaml",
          {"player": "lucy", "turn": 1, "actions": [{"avancer": 1}], "roleplay": forged})
    assert pbp("run", "--no-commit", cwd=toy_campaign).exit_code == 0
    codes = short_codes(toy_campaign)
    thread = thread_of(toy_campaign)
    r = audit(reveal(toy_campaign, tmp_path), tmp_path, page_copy(thread, "markdown") if copied else thread)
    assert f"Dice commitment: the revealed secret does give sha256:{seal.commitment('s3cret')} (turn 0's post, " \
           "seals.yaml, the thread).\n" in r.output
    assert f"Turn 1: identical, code pbp#1/{codes[1]} as in the thread.\n" in r.output
    if not copied:  # the source quotes the roleplay (`> `, its `*` and `[` escaped): no line of it is a seal line
        assert r.exit_code == 0, r.output
        assert f"Turn 0: identical, code pbp#0/{codes[0]} as in the thread.\n" in r.output
        assert r.output.endswith("Verdict: everything matches (2 turns).\n")
    else:  # the page shows the roleplay's lines as the MJ's read: every one is kept, so the audit says so
        assert r.exit_code == 1
        assert f"Turn 0: DIFFERS\n  - the thread shows 0000-0000-0000-0000, the archive gives {codes[0]}\n" in r.output


def test_a_commitment_line_that_differs_is_found_though_a_roleplay_quotes_the_right_one(played, tmp_path):
    commit = seal.commitment("s3cret")
    with_roleplay(played, f"Engagement des dés : sha256:{commit}\n")
    thread = thread_of(played)
    line = f"[b]Engagement des dés[/b]\u00a0: sha256:{commit}\n"
    assert thread.count(line) == 1
    r = audit(reveal(played, tmp_path), tmp_path, thread.replace(line, line.replace(commit, "0" * 64)))
    assert r.exit_code == 1
    assert (f"Engagement des dés DIFFÉRENT : le fil montre sha256:{'0' * 64}, le secret révélé donne "
            f"sha256:{commit} — le secret n'est pas celui de la mise en place.\n") in r.output


# -- bundles built to exhaust the auditor's machine ---------------------------------------

def _raw_bundle(path, headers: list[bytes], tail: bytes = b""):
    """A tar.gz made of these raw tar blocks, as no honest tool writes them."""
    import gzip

    with gzip.open(path, "wb", compresslevel=1) as gz:
        for block in headers:
            gz.write(block)
        gz.write(tail)
    return path


_WRITES: list = []  # the files and folders written while a test watches (`written`)
_WATCHING = []


def _watch_writes(event, args):
    """An audit hook (it cannot be removed: it records only while a test watches)."""
    if not _WATCHING:
        return
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        path, mode, flags = args
        if (mode is not None and any(c in mode for c in "wax+")) or \
                (mode is None and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)):
            _WRITES.append(os.fsdecode(path))
    elif event in ("os.mkdir", "os.rename", "shutil.copyfile"):
        _WRITES.append(os.fsdecode(args[0]))


sys.addaudithook(_watch_writes)


@pytest.fixture
def written():
    """A function giving every file or folder written since the test began (the
    user's cache folder left out: it holds pbp's own plain data, no bundle's file)."""
    cache = os.path.abspath(os.environ["XDG_CACHE_HOME"])
    _WRITES.clear()
    _WATCHING.append(True)
    yield lambda: [w for w in _WRITES if not os.path.abspath(w).startswith(cache)]
    _WATCHING.clear()


def test_an_audit_writes_nothing_to_disk(played, tmp_path, written):
    """The bundle is replayed from memory: not one of its files is unpacked."""
    bundle = reveal(played, tmp_path)
    _WRITES.clear()
    r = audit(bundle, tmp_path)
    assert r.exit_code == 0, r.output
    assert "Verdict : tout concorde (3 tours)." in r.output
    assert written() == []


def test_a_member_larger_than_an_audit_accepts_is_refused_at_its_header(tmp_path, written):
    """A 1.8 MB bundle may unpack to a 400 MB world.yaml: refused from its header, nothing read."""
    ok = tarfile.TarInfo("campaign/campaign.yaml")
    ok.size = 0
    huge = tarfile.TarInfo("campaign/world.yaml")
    huge.size = 400 * 1024 * 1024
    bundle = _raw_bundle(tmp_path / "bombe.tar.gz", [ok.tobuf(), huge.tobuf()], b"a" * 4096)
    _WRITES.clear()  # the bundle itself
    r = pbp("audit", bundle)
    assert r.exit_code == 1
    assert r.stderr == (f"{bundle}: « campaign/world.yaml » fait 419430400 octets une fois décompressé, au plus "
                        "16777216 par élément : ce n'est pas une archive de pbp reveal ; rien n'en a été extrait.\n")
    assert written() == []


def test_too_many_members_are_refused_before_anything_is_written(tmp_path, written):
    empty = tarfile.TarInfo("campaign/turns/001/orders/x.yaml")
    empty.size = 0
    bundle = _raw_bundle(tmp_path / "foule.tar.gz", [empty.tobuf()] * 100_001)
    _WRITES.clear()  # the bundle itself
    r = pbp("audit", bundle)
    assert r.exit_code == 1
    assert r.stderr == (f"{bundle}: l'archive contient plus de 100000 éléments : ce n'est pas une archive de pbp "
                        "reveal ; rien n'en a été extrait.\n")
    assert written() == []


def test_a_bundle_larger_in_all_than_an_audit_holds_in_memory_is_refused_at_its_headers(tmp_path, written):
    """Seven members of 15 MiB each, every one within the member limit: 105 MiB
    in all, over the 96 MiB an audit holds in memory (its peak stays under
    200 MB: bench/bench_hostile_bundle.py). Refused from the headers."""
    blocks, data = [], b"a" * (15 * 1024 * 1024)
    for i in range(7):
        member = tarfile.TarInfo(f"campaign/turns/000/private/p{i}.bbcode")
        member.size = len(data)
        blocks += [member.tobuf(), data]
    bundle = _raw_bundle(tmp_path / "lourd.tar.gz", blocks)
    _WRITES.clear()  # the bundle itself
    r = pbp("audit", bundle)
    assert r.exit_code == 1
    assert r.stderr == (f"{bundle}: l'archive dépasse ce qu'un audit accepte (100663296) : ce n'est pas une archive "
                        "de pbp reveal.\n")
    assert written() == []


def test_an_extended_header_larger_than_pbp_writes_is_refused(tmp_path, written):
    member = tarfile.TarInfo("campaign/campaign.yaml")
    member.size = 0
    member.pax_headers = {"comment": "x" * 200_000}
    bundle = _raw_bundle(tmp_path / "pax.tar.gz", [member.tobuf(tarfile.PAX_FORMAT)])
    _WRITES.clear()  # the bundle itself
    r = pbp("audit", bundle)
    assert r.exit_code == 1
    assert "éléments" not in r.stderr and "une fois décompressé, au plus 65536 par élément" in r.stderr, r.stderr
    assert written() == []


def test_a_member_a_pax_header_makes_larger_is_refused_by_name(tmp_path):
    """A PAX `size` record gives the member another size than its own header:
    checked again as tarfile reads it."""
    member = tarfile.TarInfo("campaign/world.yaml")
    member.size = 0
    member.pax_headers = {"size": str(300 * 1024 * 1024)}
    after = tarfile.TarInfo("campaign/characters.yaml")  # what a header-by-header reading sees next
    after.size = 0
    bundle = _raw_bundle(tmp_path / "pax.tar.gz", [member.tobuf(tarfile.PAX_FORMAT), after.tobuf()])
    r = pbp("audit", bundle)
    assert r.exit_code == 1
    assert r.stderr == (f"{bundle}: « campaign/world.yaml » fait 314572800 octets une fois décompressé, au plus "
                        "16777216 par élément : ce n'est pas une archive de pbp reveal ; rien n'en a été extrait.\n")
