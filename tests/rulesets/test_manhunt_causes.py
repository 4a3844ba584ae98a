"""manhunt's private reports give every number its cause (an action's cost, a door,
a wound level's effect, being spotted, a trap, the panic) and the thresholds it is
played against; the order form states those thresholds; every private report
gives the next deadline; the start report says who starts on the same cell."""

from __future__ import annotations

import pytest

from tests.helpers import pbp, write

TEXT = {
    "fr": {
        "wound": "Blessure : niveau 2 (légèrement blessée), son effet : fatigue +1.",
        "fatigue": "Fatigue : 0 → 1 (blessure niveau 2 +1) — niveau 1, niveau 2 à 3",
        "stress": "Stress : 0 → 5 (porte ouverte +2, piège +3) — panique à 10",
        "noise": "Bruit : 0 → 1 (porte ouverte +1) — prochain chasseur attiré à 5 (un à chaque multiple de 5)",
        "spotted": "[b]Vous avez fait trop de bruit[/b] (bruit 2 : un chasseur de plus à chaque multiple de 2) : "
                   "un chasseur est sur votre piste… (stress +2)",
        "spotted_stress": "Stress : 0 → 4 (fouille +2, repérage par le bruit +2) — panique à 10",
        "panic": "[b]PANIQUE ![/b] (stress 4 ou plus) Vous perdez le contrôle et courez au hasard",
        "panic_costs": " : bruit +3, fatigue +3. Vous perdrez le prochain tour.",
        "form": ["# Seuils (vous en êtes à bruit 0, fatigue 0 (niveau 1), stress 0) :",
                 "#   bruit : un chasseur de plus à chaque multiple de 5 (+2 stress)",
                 "#   stress : panique à 10 (2 cases au hasard, +3 bruit, +3 fatigue, un tour perdu)"],
        "deadline": "[b]Vos ordres du tour 2[/b]\u00a0: à envoyer avant le dimanche 13 décembre 2026 à 20 h 00.",
        "with": "Avec vous : Johannes.",
    },
    "en": {
        "wound": "Wound: level 2 (lightly wounded), its effect: fatigue +1.",
        "fatigue": "Fatigue: 0 → 1 (wound level 2 +1) — level 1, level 2 at 3",
        "stress": "Stress: 0 → 5 (open door +2, trap +3) — panic at 10",
        "noise": "Noise: 0 → 1 (open door +1) — next hunter drawn at 5 (one at every multiple of 5)",
        "spotted": "[b]You made too much noise[/b] (noise 2: one more hunter at every multiple of 2): "
                   "a hunter is on your trail… (stress +2)",
        "spotted_stress": "Stress: 0 → 4 (search +2, spotted by the noise +2) — panic at 10",
        "panic": "[b]PANIC![/b] (stress 4 or more) You lose control and run blindly",
        "panic_costs": ": noise +3, fatigue +3. You will lose next turn.",
        "form": ["# Thresholds (you are at noise 0, fatigue 0 (level 1), stress 0):",
                 "#   noise: one more hunter at every multiple of 5 (+2 stress)",
                 "#   stress: panic at 10 (2 random cells, +3 noise, +3 fatigue, a turn lost)"],
        "deadline": "[b]Your orders for turn 2[/b]: to send before Sunday 13 December 2026 at 20:00.",
        "with": "With you: Johannes.",
    },
}


def event(tmp_path, lang, rules=""):
    """A new event from the skeleton (Mélétê and Johannes on S01, a trap north in S02)."""
    root = tmp_path / lang
    assert pbp("init", root, "--ruleset", "manhunt", "--lang", lang).exit_code == 0
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8") + rules
                      + 'deadline: {first: "2026-12-06 20:00", every: "7 days"}\n', encoding="utf-8")
    assert pbp("setup", cwd=root).exit_code == 0
    return root


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_trap_and_a_door_are_the_causes_of_the_numbers(tmp_path, lang):
    words = TEXT[lang]
    root = event(tmp_path, lang)
    start = pbp("post", "--player", "lucy", cwd=root).output
    assert words["with"] in start
    form = pbp("orders", "--player", "lucy", cwd=root).output
    assert all(line in form for line in words["form"]), form
    write(root, "turns/001/orders/lucy.yaml", "actions:\n  - deplacement_normal: nord\n")
    write(root, "turns/001/orders/johannes.yaml", "actions:\n  - se_cacher\n")
    assert pbp("run", cwd=root).exit_code == 0
    report = pbp("post", "--player", "lucy", cwd=root).output
    for key in ("wound", "fatigue", "stress", "noise", "deadline"):
        assert words[key] in report, (key, report)
    assert words["deadline"] in pbp("post", "--player", "johannes", cwd=root).output


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_being_spotted_and_the_panic_say_their_threshold_and_their_cost(tmp_path, lang):
    words = TEXT[lang]
    root = event(tmp_path / "noise", lang, "  noise: {threshold: 2}\n")
    write(root, "turns/001/orders/johannes.yaml", "actions:\n  - fouille\n")
    write(root, "turns/001/orders/lucy.yaml", "actions:\n  - se_cacher\n")
    assert pbp("run", cwd=root).exit_code == 0
    johannes = pbp("post", "--player", "johannes", cwd=root).output
    assert words["spotted"] in johannes and words["spotted_stress"] in johannes, johannes
    root = event(tmp_path / "panic", lang, "  stress: {panic: 4}\n")
    write(root, "turns/001/orders/johannes.yaml", "actions:\n  - se_cacher\n")
    write(root, "turns/001/orders/lucy.yaml", "actions:\n  - deplacement_normal: nord\n")
    assert pbp("run", cwd=root).exit_code == 0
    lucy = pbp("post", "--player", "lucy", cwd=root).output
    assert words["panic"] in lucy and words["panic_costs"] in lucy, lucy
