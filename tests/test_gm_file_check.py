"""`pbp check` on the MJ's own gm.yaml: every problem at once, counted in the
summary, in words meant for the MJ (not the players' order files)."""

from __future__ import annotations

from tests.helpers import copy_example, pbp, write

GM = "turns/004/gm.yaml"


def test_every_problem_of_gm_yaml_at_once_and_in_the_summary(tmp_path):
    root = copy_example("manhunt", tmp_path)
    write(root, GM, "naration: x\norders:\n  chasseurs:\n    h9: {aller: S99}\n")
    r = pbp("check", cwd=root)
    assert r.exit_code == 1
    assert r.stderr.splitlines() == [
        f"{GM}:1: clé inconnue « naration ». Vouliez-vous dire « narration » ? "
        "Valeurs possibles : turn, narration, rolls, orders.",
        f"{GM}:4: « S99 » n'est pas voisine de la case du chasseur : il ne fait qu'un pas. "
        "Valeurs possibles : S15, S13."]
    assert f"{GM} : 2 problèmes, listés ci-dessus ; « pbp run » refusera le tour tant qu'ils y sont." \
        in r.stdout.splitlines()
    write(root, GM, "narration: x\n")
    r = pbp("check", cwd=root)
    assert r.exit_code == 0 and "gm.yaml" not in r.output


def test_an_alias_or_a_folder_in_place_of_gm_yaml_is_said_to_the_mj(tmp_path):
    root = copy_example("manhunt", tmp_path)
    write(root, GM, "a: &x 1\nb: *x\n")
    r = pbp("check", cwd=root)
    assert r.exit_code == 1 and r.stderr.splitlines()[0] == (
        f"{GM}:1: ancre ou alias YAML (« &nom », « *nom ») : pbp ne les lit pas dans les fichiers de campagne ; "
        "écrivez chaque valeur en entier (un texte qui commence par « * » ou « & » se met entre guillemets).")
    (root / GM).unlink()
    (root / GM).mkdir()
    r = pbp("check", cwd=root)
    assert r.exit_code == 1 and r.stderr.splitlines()[0] == (
        f"{GM}: c'est un dossier, pas un fichier : pbp attend ici un fichier. Déplacez ou renommez ce dossier.")
